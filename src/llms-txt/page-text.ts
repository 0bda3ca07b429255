// What a listed page says of itself, read from its facts (see page-facts.ts): its title, its meta
// description, its first paragraph and headings. Where the facts hold no paragraph and no purpose
// line (a page whose text sits in a region its facts call navigation), its main content's, which
// the DOM pass reads (see readContentFacts).
import { isBoilerplateDescription } from './boilerplate.ts';
import { languageOf } from './language.ts';
import { metadataFromHead, type PageMetadata } from './metadata.ts';
import { MAX_HEADING_CHARS, type PageFacts } from './page-facts.ts';
import { phrasesFor, type Phrases } from './phrases.ts';
import type { TitleRule } from './rules.ts';
import { hostNames, stripSiteName, titleParts, trimDocumentTitle } from './title.ts';

export interface PageText {
  url: string;
  title: string;
  /** The rule that chose the title (see TitleRule). */
  titleRule: TitleRule;
  /** The title as the page wrote it, before any " | Site" part was dropped (null when it had none). */
  fullTitle: string | null;
  /** The meta description, unless it is a placeholder or repeats the title. */
  metaDescription: string | null;
  siteName: string | null;
  /** First meaningful paragraph, as plain text ('' when none). */
  firstParagraph: string;
  h1: string | null;
  /** Section headings (h2, h3), at most 30. */
  headings: string[];
}

/** The first paragraph and headings of a page's main content. */
export type ContentFacts = Pick<PageFacts, 'firstParagraph' | 'headings'>;

export function pageText(facts: PageFacts, content?: ContentFacts | null): PageText {
  const metadata = metadataFromHead(facts.head);
  const onlyH1 = facts.h1Count === 1 ? facts.h1 : null;
  const siteNames = [metadata.siteName, ...hostNames(facts.url)].filter((name): name is string => Boolean(name));
  const phrases = phrasesFor(languageOf(facts));
  const { title, rule } = chooseTitle(metadata, siteNames, facts.url, onlyH1, phrases);
  return {
    url: facts.url,
    title,
    titleRule: rule,
    fullTitle: metadata.metaTitle ?? metadata.documentTitle,
    metaDescription: metadata.descriptions.find((text) => !isBoilerplateDescription(text, phrases, title)) ?? null,
    siteName: metadata.siteName,
    h1: metadata.h1,
    firstParagraph: content ? content.firstParagraph : facts.firstParagraph,
    headings: content ? content.headings : facts.headings.filter((heading) => heading.length <= MAX_HEADING_CHARS),
  };
}

/**
 * The rules a title comes from: the title the site wrote for sharing (og:title, JSON-LD), the
 * document's <title>, the page's <h1> (a <title> too short or too long gives way to the only one),
 * its URL; then, across the site, the <h1> or the URL of a page whose title most pages share.
 */
export type { TitleRule } from './rules.ts';

/** og:title / twitter:title / <title> / first <h1>, without the part that repeats the site's name. */
export function chooseTitle(metadata: PageMetadata, siteNames: readonly string[], url: string, onlyH1: string | null, phrases: Phrases): { title: string; rule: TitleRule } {
  const usable = (title: string | null) => (title && !isPlaceholderTitle(titleParts(title)[0] ?? '', phrases) ? title : null);
  const documentTitle = usable(metadata.documentTitle);
  const metaTitle = usable(metadata.metaTitle);
  const trimmed = documentTitle ? trimDocumentTitle(documentTitle, onlyH1) : null;
  const [raw, rule]: [string | null, TitleRule] = metaTitle
    ? [metaTitle, 'title.meta-title']
    : trimmed
      ? [trimmed, trimmed === onlyH1 && trimmed !== documentTitle ? 'title.heading' : 'title.document-title']
      : [usable(metadata.h1), 'title.heading'];
  if (!raw) return { title: titleFromUrl(url), rule: 'title.url' };
  return { title: stripSiteName(raw, siteNames), rule };
}

/** A title a generator writes when a page has none: a missing value ("undefined"), or words of the page's language ("Untitled"). */
function isPlaceholderTitle(title: string, phrases: Phrases): boolean {
  return /^(?:undefined|null)$/i.test(title) || phrases.placeholderTitle.test(title);
}

/** "https://x.dev/docs/getting-started.html" → "Getting started"; the root gives the host name. */
export function titleFromUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const segment = parsed.pathname.split('/').filter(Boolean).pop();
    if (!segment) return parsed.hostname.replace(/^www\./, '');
    const words = decodeURIComponent(segment).replace(/\.\w{2,5}$/, '').replace(/[-_+]+/g, ' ').trim();
    return words ? words.charAt(0).toUpperCase() + words.slice(1) : parsed.hostname;
  } catch {
    return url;
  }
}
