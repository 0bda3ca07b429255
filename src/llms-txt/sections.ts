// Grouping a site's pages into llms.txt sections, and telling which pages are low-value.
import { normalizeWhitespace, trimEndOf } from './text.ts';
import { MIN_MIRRORED_PAGES } from './tuning.ts';

export const OPTIONAL_SECTION = 'Optional';

export interface SectionablePage {
  url: string;
  /** A section chosen for the page (by the model in enhanced mode); otherwise the URL decides. */
  section?: string | null;
  /** Low-value page: goes to the final `Optional` section. */
  optional: boolean;
}

export interface Section<T> {
  name: string;
  pages: T[];
}

// Path segments with a conventional section name.
const KNOWN_SECTIONS: Record<string, string> = {
  doc: 'Docs', docs: 'Docs', documentation: 'Docs', manual: 'Manual', handbook: 'Handbook',
  api: 'API Reference', apis: 'API Reference', 'api-reference': 'API Reference', 'api-docs': 'API Reference',
  reference: 'Reference', ref: 'Reference',
  guide: 'Guides', guides: 'Guides', 'how-to': 'How-To Guides', howto: 'How-To Guides', tutorial: 'Tutorials', tutorials: 'Tutorials',
  learn: 'Learn', 'getting-started': 'Getting Started', 'get-started': 'Getting Started', quickstart: 'Getting Started', start: 'Getting Started',
  blog: 'Blog', posts: 'Blog', post: 'Blog', articles: 'Articles', news: 'News',
  example: 'Examples', examples: 'Examples', samples: 'Examples', cookbook: 'Cookbook', recipes: 'Recipes',
  faq: 'FAQ', faqs: 'FAQ', help: 'Help', support: 'Support',
  changelog: 'Changelog', releases: 'Releases', 'release-notes': 'Release Notes', whatsnew: "What's New", 'whats-new': "What's New",
  pricing: 'Pricing', about: 'About', company: 'Company', team: 'About', careers: 'Careers', jobs: 'Careers',
  legal: 'Legal', policies: 'Legal', integrations: 'Integrations', plugins: 'Plugins', sdk: 'SDKs', sdks: 'SDKs',
  cli: 'CLI', concepts: 'Concepts', features: 'Features', products: 'Products', product: 'Products', solutions: 'Solutions',
  resources: 'Resources', community: 'Community', customers: 'Customers', 'case-studies': 'Case Studies',
  library: 'Library', lib: 'Library', install: 'Installation', installation: 'Installation', tools: 'Tools',
};

const ACRONYMS = new Set(['api', 'apis', 'cli', 'sdk', 'faq', 'ui', 'ux', 'http', 'https', 'sql', 'css', 'html', 'js', 'ios', 'url', 'id', 'ai', 'llm', 'rest', 'json', 'xml', 'seo', 'sso', 'oauth', 'aws', 'gcp']);

/** A readable section name for a path segment: "api" → "API Reference", "getting_started" → "Getting Started". */
export function sectionNameForSegment(segment: string): string {
  const key = decodeSegment(segment).toLowerCase().replace(/\.(?:html?|php|aspx?|jsp|md)$/, '');
  if (KNOWN_SECTIONS[key]) return KNOWN_SECTIONS[key];
  const words = key.split(/[-_+.\s]+/).filter(Boolean);
  if (words.length === 0) return 'Pages';
  return words.map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word.charAt(0).toUpperCase() + word.slice(1))).join(' ');
}

/** Cleans a section name a model wrote: one line, no trailing punctuation, at most 40 characters. */
export function cleanSectionName(name: string | null | undefined): string | null {
  const text = trimEndOf(normalizeWhitespace(name).replace(/^#+\s*/, ''), '.:;,');
  if (!text) return null;
  const short = text.length > 40 ? text.slice(0, 40).replace(/\s+\S*$/, '') || text.slice(0, 40) : text;
  return short.charAt(0).toUpperCase() + short.slice(1);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function pathSegments(url: string): string[] {
  try {
    return new URL(url).pathname.split('/').filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Orders a site's pages into sections: pages the model placed keep its section names; the
 * others are grouped by their first path segment below the part all pages share
 * (`/docs/api/…` and `/docs/guides/…` on a site whose pages all sit under `/docs/`). The
 * section holding the home page comes first ("Overview"), then larger sections, then
 * `Optional`. Single-page path groups join the first section; no section is ever empty.
 */
export function planSections<T extends SectionablePage>(pages: readonly T[]): Section<T>[] {
  const isOptional = (page: T) => page.optional || /^optional$/i.test(page.section ?? '');
  const optional = pages.filter(isOptional);
  const regular = pages.filter((page) => !isOptional(page));
  const order = new Map(regular.map((page, index) => [page, index]));
  const segmentsByPage = new Map(regular.map((page) => [page, pathSegments(page.url)]));
  const depth = sharedDepth([...segmentsByPage.values()]);
  // "/blog" is a folder when other pages live below it; "/about" alone is a page.
  const folders = new Set([...segmentsByPage.values()].filter((segments) => segments.length > depth + 1).map((segments) => segments[depth]));

  const ROOT = '\u0000root';
  const groups = new Map<string, { name: string; pages: T[]; fromModel: boolean; hasRoot: boolean; first: number }>();
  regular.forEach((page, index) => {
    const modelSection = cleanSectionName(page.section);
    const segments = segmentsByPage.get(page) ?? [];
    const folder = segments.length > depth && folders.has(segments[depth]) ? segments[depth] : null;
    const [key, name] = modelSection
      ? [`model:${modelSection.toLowerCase()}`, modelSection]
      : folder !== null
        ? [`path:${folder.toLowerCase()}`, sectionNameForSegment(folder)]
        : [ROOT, ''];
    const group = groups.get(key) ?? { name, pages: [], fromModel: Boolean(modelSection), hasRoot: false, first: index };
    group.pages.push(page);
    if (segments.length <= depth) group.hasRoot = true;
    groups.set(key, group);
  });

  // Path groups of a single page read better inside the first section than as a heading each.
  const root = groups.get(ROOT) ?? { name: '', pages: [], fromModel: false, hasRoot: true, first: Infinity };
  for (const [key, group] of groups) {
    if (key !== ROOT && !group.fromModel && group.pages.length === 1) {
      root.pages.push(...group.pages);
      root.first = Math.min(root.first, group.first);
      groups.delete(key);
    }
  }
  if (root.pages.length > 0) {
    root.pages.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    groups.set(ROOT, root);
  }

  const ordered = [...groups.entries()].sort(([keyA, a], [keyB, b]) => {
    const rootA = keyA === ROOT || a.hasRoot ? 0 : 1;
    const rootB = keyB === ROOT || b.hasRoot ? 0 : 1;
    return rootA - rootB || b.pages.length - a.pages.length || a.first - b.first;
  });
  const sections: Section<T>[] = ordered.map(([key, group]) => ({
    name: key === ROOT ? (groups.size > 1 ? 'Overview' : 'Pages') : group.name,
    pages: key === ROOT ? group.pages : landingPageFirst(group.pages, segmentsByPage),
  }));
  mergeSameNames(sections);
  if (optional.length > 0) sections.push({ name: OPTIONAL_SECTION, pages: optional });
  return sections.filter((section) => section.pages.length > 0);
}

/** How many leading path segments (nearly) all pages share: a site living under /docs/ or /en/. */
function sharedDepth(allSegments: string[][]): number {
  let depth = 0;
  while (depth < 3) {
    if (allSegments.filter((segments) => segments.length > depth + 1).length < 2) break;
    const counts = new Map<string, number>();
    for (const segments of allSegments) {
      if (segments.length > depth) counts.set(segments[depth], (counts.get(segments[depth]) ?? 0) + 1);
    }
    const top = Math.max(0, ...counts.values());
    // 90 % of the pages in one folder (its landing page included): group by the level below it.
    if (top < allSegments.length * 0.9) break;
    depth++;
  }
  return depth;
}

/** A section's landing page (the shortest path, e.g. /docs/) first; the rest keep their order. */
function landingPageFirst<T>(pages: T[], segmentsByPage: Map<T, string[]>): T[] {
  if (pages.length < 2) return pages;
  let landing = 0;
  pages.forEach((page, index) => {
    if ((segmentsByPage.get(page)?.length ?? 0) < (segmentsByPage.get(pages[landing])?.length ?? 0)) landing = index;
  });
  return [pages[landing], ...pages.filter((_, index) => index !== landing)];
}

function mergeSameNames<T>(sections: Section<T>[]): void {
  for (let i = 0; i < sections.length; i++) {
    for (let j = sections.length - 1; j > i; j--) {
      if (sections[j].name.toLowerCase() === sections[i].name.toLowerCase()) {
        sections[i].pages.push(...sections[j].pages);
        sections.splice(j, 1);
      }
    }
  }
}

const LOW_VALUE_SEGMENT =
  /^(?:tags?|category|categories|author|authors|archives?|labels?|privacy|privacy-policy|privacy-notice|terms|terms-of-service|terms-of-use|terms-and-conditions|tos|cookies?|cookie-policy|cookie-settings|legal|imprint|impressum|disclaimer|licen[cs]es?|licen[cs]ing|copying|copyright|gdpr|dmca|changelog|change-log|changes|release-notes|releasenotes|releases|new[_-]?features(?:[_-][\d_.]+)?|whats[_-]?new(?:[_-]?[\d_.]+)?|login|log-in|signin|sign-in|signup|sign-up|register|logout|cart|checkout|search|account|404|not-found|sitemap|genindex(?:-\w+)?|(?:py-)?modindex|_modules|_sources)(?:\.\w{2,5})?$/i;
const VERSION_SEGMENT = /^(?:v\d+(?:\.\d+)*(?:\.x)?|\d+\.(?:\d+|x)(?:\.\d+)*)$/i;
const CURRENT_VERSION_SEGMENT = /^(?:latest|stable|current|main|master|dev|next)$/i;

/**
 * The URLs of low-value pages, for the `Optional` section: tag, category, author and date
 * archives; pagination; legal pages; changelogs and release notes; login, search and generated
 * index pages (Sphinx's genindex); highlighted source code (Sphinx's `_modules/`), which the
 * pages documenting it describe better;
 * and old versions (`/v1/` when `/v2/` or `/latest/` exists under the same path).
 */
export function findOptionalPages(urls: readonly string[]): Set<string> {
  const optional = new Set<string>();
  const versions = new Map<string, { url: string; version: string }[]>();
  const currentAliases = new Set<string>();
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    const segments = parsed.pathname.split('/').filter(Boolean).map(decodeSegment);
    const page = Number(parsed.searchParams.get('page') ?? parsed.searchParams.get('paged') ?? parsed.searchParams.get('p'));
    if (
      segments.some((segment) => LOW_VALUE_SEGMENT.test(segment)) ||
      page > 1 ||
      /\/page\/\d+\/?$/.test(parsed.pathname) ||
      /\/\d{4}\/(?:\d{1,2}\/){0,2}$/.test(parsed.pathname.endsWith('/') ? parsed.pathname : `${parsed.pathname}/`)
    ) {
      optional.add(url);
    }
    segments.forEach((segment, index) => {
      const prefix = `${parsed.host}/${segments.slice(0, index).join('/')}`;
      if (VERSION_SEGMENT.test(segment)) {
        const list = versions.get(prefix) ?? [];
        list.push({ url, version: segment });
        versions.set(prefix, list);
      } else if (CURRENT_VERSION_SEGMENT.test(segment)) {
        currentAliases.add(prefix);
      }
    });
  }
  for (const url of olderVersionPages(urls).keys()) optional.add(url);
  for (const [prefix, list] of versions) {
    const distinct = [...new Set(list.map((entry) => entry.version.toLowerCase()))];
    if (distinct.length < 2 && !currentAliases.has(prefix)) continue;
    const newest = currentAliases.has(prefix) ? null : distinct.sort(compareVersions).pop();
    for (const entry of list) if (entry.version.toLowerCase() !== newest) optional.add(entry.url);
  }
  return optional;
}

/**
 * Pages of older versions kept beside the current ones: under a version segment ("/0.13/"), pages
 * whose paths, that segment left out, are pages too (Docusaurus keeps the current version
 * unprefixed, each older one under its number). By URL, whether it is the version's entry page
 * (its root, the one page of it worth listing).
 */
export function olderVersionPages(urls: readonly string[]): Map<string, boolean> {
  const paths = new Set<string>();
  const parsed: Array<{ url: string; host: string; segments: string[] }> = [];
  for (const url of urls) {
    try {
      const { host, pathname } = new URL(url);
      const segments = pathname.split('/').filter(Boolean).map(decodeSegment).filter((segment, index, all) => index < all.length - 1 || !/^index\.html?$/i.test(segment));
      paths.add(`${host}/${segments.join('/')}`);
      parsed.push({ url, host, segments });
    } catch {
      continue;
    }
  }
  const byVersion = new Map<string, { pages: Array<{ url: string; root: boolean }>; mirrored: number }>();
  for (const { url, host, segments } of parsed) {
    const index = segments.findIndex((segment) => VERSION_SEGMENT.test(segment));
    if (index < 0) continue;
    const version = `${host}/${segments.slice(0, index + 1).join('/')}`;
    const entry = byVersion.get(version) ?? { pages: [], mirrored: 0 };
    entry.pages.push({ url, root: segments.length === index + 1 });
    if (paths.has(`${host}/${[...segments.slice(0, index), ...segments.slice(index + 1)].join('/')}`)) entry.mirrored++;
    byVersion.set(version, entry);
  }
  const older = new Map<string, boolean>();
  for (const { pages, mirrored } of byVersion.values()) {
    if (mirrored < MIN_MIRRORED_PAGES || mirrored * 2 < pages.length) continue;
    for (const page of pages) older.set(page.url, page.root);
  }
  return older;
}

function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.replace(/^v/i, '').split('.').map((part) => (part === 'x' ? Infinity : Number(part) || 0));
  const left = parts(a);
  const right = parts(b);
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return diff > 0 ? 1 : -1;
  }
  return 0;
}
