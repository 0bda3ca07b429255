// Page metadata read from the parsed document before Readability rewrites it: title candidates,
// descriptions, site name and language, from <meta> tags, JSON-LD, <title> and headings.
import { candidateText, compactKey, decodeEntities, tokenize } from './text.ts';
import { trimDocumentTitle } from './title.ts';

export interface PageMetadata {
  /** og:title, dc:title, twitter:title, JSON-LD headline: titles the site wrote for sharing. */
  metaTitle: string | null;
  /** The document's <title>. */
  documentTitle: string | null;
  /** Text of the first <h1>. */
  h1: string | null;
  /** Meta descriptions in order of preference (og:description first, as publishers tune it for sharing). */
  descriptions: string[];
  siteName: string | null;
  lang: string | null;
}

const ARTICLE_TYPES = /^(?:Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference)$/;

/**
 * The raw head of a page as a parser saw it: the DOM (readMetadata) and the one-pass outline
 * (page-facts.ts) both produce it, so both read metadata by the same rules.
 */
export interface PageHead {
  metaTags: MetaTag[];
  /** Texts of `<script type="application/ld+json">`. */
  jsonLd: string[];
  documentTitle: string | null;
  /** Text of the first <h1>. */
  h1: string | null;
  /** `lang` or `xml:lang` of <html>. */
  htmlLang: string | null;
}

export type MetaTag = Partial<Record<'property' | 'name' | 'http-equiv' | 'itemprop' | 'content', string>>;

const META_ATTRIBUTES = ['property', 'name', 'http-equiv', 'itemprop', 'content'] as const;

export function readMetadata(doc: Document): PageMetadata {
  const attributesOf = (element: Element) => Object.fromEntries(META_ATTRIBUTES.flatMap((name) => (element.hasAttribute(name) ? [[name, element.getAttribute(name)!]] : [])));
  return metadataFromHead({
    metaTags: [...doc.querySelectorAll('meta')].map(attributesOf),
    jsonLd: [...doc.querySelectorAll('script[type="application/ld+json"]')].map((script) => script.textContent ?? ''),
    documentTitle: doc.querySelector('title')?.textContent ?? null,
    h1: doc.querySelector('h1')?.textContent ?? null,
    htmlLang: doc.documentElement?.getAttribute('lang') ?? doc.documentElement?.getAttribute('xml:lang') ?? null,
  });
}

export function metadataFromHead(head: PageHead): PageMetadata {
  const meta = readMetaTags(head.metaTags);
  const jsonLd = readJsonLd(head.jsonLd);
  const documentTitle = clean(head.documentTitle);
  const h1 = clean(head.h1);

  const metaTitle = jsonLdTitle(jsonLd, documentTitle) ?? pick(meta, ['dc:title', 'dcterm:title', 'og:title', 'twitter:title', 'parsely-title']);
  const descriptions = unique(
    [
      jsonLd.description,
      ...pickAll(meta, ['dc:description', 'dcterm:description', 'og:description', 'description', 'twitter:description']),
    ].filter((value): value is string => Boolean(value)),
  );
  const siteName =
    pick(meta, ['og:site_name', 'application-name', 'apple-mobile-web-app-title']) ?? jsonLd.siteName;
  const htmlLang = head.htmlLang;
  const locale = pick(meta, ['content-language', 'og:locale', 'language']);
  const lang = clean(htmlLang) ?? (locale ? locale.replace('_', '-') : null);

  return { metaTitle, documentTitle, h1, descriptions, siteName, lang };
}

function readMetaTags(tags: readonly MetaTag[]): Map<string, string> {
  // Keys from `property` (Open Graph's attribute) win over the same keys from `name`.
  const fromProperty = new Map<string, string>();
  const fromName = new Map<string, string>();
  for (const tag of tags) {
    const content = clean(tag.content);
    if (!content) continue;
    // `property` may hold several space-separated names ("og:title twitter:title").
    for (const key of (tag.property ?? '').split(/\s+/)) setOnce(fromProperty, key, content);
    for (const attribute of ['name', 'http-equiv', 'itemprop'] as const) setOnce(fromName, tag[attribute], content);
  }
  for (const [key, value] of fromName) if (!fromProperty.has(key)) fromProperty.set(key, value);
  return fromProperty;
}

function setOnce(values: Map<string, string>, rawKey: string | undefined, content: string): void {
  const key = (rawKey ?? '').toLowerCase().replace(/\s/g, '').replace(/\./g, ':');
  if (key && !values.has(key)) values.set(key, content);
}

interface JsonLdMetadata {
  name: string | null;
  headline: string | null;
  description: string | null;
  siteName: string | null;
}

function readJsonLd(scripts: readonly string[]): JsonLdMetadata {
  const result: JsonLdMetadata = { name: null, headline: null, description: null, siteName: null };
  for (const script of scripts) {
    let data: unknown;
    try {
      data = JSON.parse(script.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, ''));
    } catch {
      continue;
    }
    for (const item of flattenJsonLd(data)) {
      const types = ([] as unknown[]).concat(item['@type']).filter((t): t is string => typeof t === 'string');
      if (types.some((type) => ARTICLE_TYPES.test(type))) {
        result.name ??= clean(asString(item.name));
        result.headline ??= clean(asString(item.headline));
        result.description ??= clean(asString(item.description));
        const publisher = item.publisher as Record<string, unknown> | undefined;
        result.siteName ??= clean(asString(publisher?.name));
      } else if (types.includes('WebSite')) {
        result.siteName ??= clean(asString(item.name));
      }
    }
  }
  return result;
}

/**
 * An article's JSON-LD `name`, or its `headline` when the `name` is the publisher's or only the
 * headline resembles the <title> (some sites put their own name in `name`).
 */
function jsonLdTitle(jsonLd: JsonLdMetadata, documentTitle: string | null): string | null {
  const { name, headline } = jsonLd;
  if (name && headline && jsonLd.siteName && compactKey(name) === compactKey(jsonLd.siteName)) return headline;
  if (name && headline && name !== headline && documentTitle) {
    const title = trimDocumentTitle(documentTitle, null);
    const resembles = (text: string) => tokenCoverage(text, title) > 0.75;
    if (resembles(headline) && !resembles(name)) return headline;
  }
  return name ?? headline;
}

/** The share of `text`'s characters (counted by token) whose tokens also occur in `candidate`. */
function tokenCoverage(candidate: string, text: string): number {
  const known = new Set(tokenize(candidate));
  const tokens = tokenize(text);
  const total = tokens.join(' ').length;
  if (total === 0) return 0;
  return 1 - tokens.filter((token) => !known.has(token)).join(' ').length / total;
}

function flattenJsonLd(data: unknown, depth = 0): Record<string, unknown>[] {
  if (depth > 3 || data === null || typeof data !== 'object') return [];
  if (Array.isArray(data)) return data.flatMap((item) => flattenJsonLd(item, depth + 1));
  const record = data as Record<string, unknown>;
  const graph = Array.isArray(record['@graph']) ? flattenJsonLd(record['@graph'], depth + 1) : [];
  return [record, ...graph];
}

function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function clean(value: string | null | undefined): string | null {
  const text = candidateText(decodeEntities(value ?? ''));
  return text || null;
}

function pick(values: Map<string, string>, keys: string[]): string | null {
  for (const key of keys) {
    const value = values.get(key);
    if (value) return value;
  }
  return null;
}

function pickAll(values: Map<string, string>, keys: string[]): string[] {
  return keys.map((key) => values.get(key)).filter((value): value is string => Boolean(value));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
