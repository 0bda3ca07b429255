// Site-level decisions the pages make together: the site's name and summary, and titles that turn
// out to be site-wide boilerplate once all pages are seen.
import { findRepeatedDescriptions, isBoilerplateDescription, QUESTION, QUOTATION } from './boilerplate.ts';
import { isEntry, type PageFacts } from './page-facts.ts';
import { titleFromUrl, type PageText, type TitleRule } from './page-text.ts';
import { compactKey, listOf, normalizeWhitespace, splitSentences, summarizeToSentences, writesOutAddress } from './text.ts';
import { findCommonTitleAffix, findSharedLeadWords, findSharedTitleEnds, hostNames, nameFromSharedEnds, stripSiteName, titleParts, withoutSharedEnds } from './title.ts';
import type { DescribedPage, SiteSummary } from './types.ts';
import { isEnglish, languageOf, readsAsEnglish } from './language.ts';
import { phrasesFor, type Phrases } from './phrases.ts';
import { isContentExcerpt } from './self-description.ts';
import { SUMMARY_FIRST_LEAD_PAGES as FIRST_LEAD_PAGES } from './tuning.ts';

/**
 * The listed pages' titles, once the whole site is known: a " | Site" part most titles share is
 * dropped, and so is any other beginning or end most titles share; a title most pages share gives
 * way to the page's <h1>, else to its URL. Each with the rule that chose it.
 */
export function refineTitles(pages: readonly PageText[]): Array<{ title: string; rule: TitleRule }> {
  const affix = findCommonTitleAffix(pages.map((page) => page.title)) ?? findCommonTitleAffix(pages.map((page) => page.fullTitle ?? ''));
  const withoutAffix = pages.map((page) => (affix ? stripSiteName(page.title, [affix]) : page.title));
  // What most titles begin or end with besides ("Foo Manual: " before every node's name) names no page.
  const sharedEnds = findSharedTitleEnds(withoutAffix);
  const titles = withoutAffix.map((title) => withoutSharedEnds(title, sharedEnds));
  const isRepeatedTitle = findRepeatedDescriptions(titles);
  const refined = pages.map((page, index): { title: string; rule: TitleRule } => {
    const title = titles[index];
    if (!isRepeatedTitle(title)) return { title, rule: page.titleRule };
    return page.h1 && !isRepeatedTitle(page.h1) ? { title: page.h1, rule: 'title.heading-for-shared-title' } : { title: titleFromUrl(page.url), rule: 'title.url-for-shared-title' };
  });
  // …nor do the words most of the titles open with ("Apache Module " before each module's name),
  // each title counted once.
  const leadWords = findSharedLeadWords([...new Set(refined.map(({ title }) => title))]);
  return leadWords ? refined.map((entry) => (entry.title.startsWith(leadWords) ? { ...entry, title: entry.title.slice(leadWords.length) } : entry)) : refined;
}

export interface SiteContext {
  /** The home page's outline, when it was fetched. */
  home?: PageFacts | null;
  /** The pages the home page lists, in its order: the first few, or one named after the site, may say what the site is. */
  leadPages?: readonly PageFacts[];
  /** Text that many pages share: never the summary. */
  isRepeated?: (text: string) => boolean;
}

/**
 * The site's name (the pages' og:site_name, else the " | Name" their titles share, else the home
 * page's title, else the host), without "Home Page" noise, and a one-sentence summary from what
 * the site says about itself: the home page's meta description or lead paragraph, else the lead
 * paragraph of the first page it lists when that names the site; never text many pages share.
 */
export function inferSite(siteUrl: string, pages: readonly PageText[], context: SiteContext = {}): SiteSummary {
  const home = findHomePage(siteUrl, pages);
  const rawName =
    mostCommon(pages.map((page) => page.siteName)) ??
    findCommonTitleAffix(pages.map((page) => page.fullTitle ?? page.title)) ??
    nameFromSharedEnds(findSharedTitleEnds(pages.map((page) => page.fullTitle ?? page.title))) ??
    homeTitleName(home) ??
    hostNames(siteUrl)[0] ??
    siteUrl;
  const name = cleanSiteName(rawName) || rawName;
  const isRepeated = context.isRepeated ?? (() => false);
  // A meta description that only repeats the home page's title (Texinfo's) says nothing more.
  const homeTitles = new Set([home?.fullTitle, home?.title].map((title) => compactKey(title ?? '')));
  // The home page's language, from its URL too (`/handbook/de-DE/`), where its <html> names none.
  const language = context.home ? languageOf(context.home) : null;
  const english = isEnglish(language);
  const phrases = phrasesFor(language);
  const usable = (text: string | null | undefined) => {
    const clean = normalizeWhitespace(text);
    // A question or a quotation does not say what the site is ("Where can I discuss Acme?").
    const saysWhatItIs = !QUESTION.test(clean) && !QUOTATION.test(clean);
    return clean.split(' ').length >= 5 && saysWhatItIs && (!english || readsAsEnglish(clean)) && !isRepeated(clean) && !isBoilerplateDescription(clean, phrases) && !phrases.legalNotice.test(clean) && !homeTitles.has(compactKey(clean)) && !isNoticeOrByline(clean, name)
      ? clean
      : null;
  };
  const homeHeadings = [context.home?.h1, ...(context.home?.headings ?? []), home?.h1, ...(home?.headings ?? [])];
  const metas = [home?.metaDescription, context.home?.metaDescription].filter((meta) => !meta || !isContentExcerpt(meta, homeHeadings));
  const homeTexts = [...metas, ...(context.home?.paragraphs ?? []), home?.firstParagraph].map(usable);
  // "Acme is a command-line tool for…" says what the site is where a tagline beside it does not.
  const fromHome = homeTexts.find((text) => text !== null && definesSite(text, name)) ?? homeTexts.find(Boolean);
  const namesSite = (text: string | null) => Boolean(text) && compactKey(text!).includes(nameWord(name));
  // A lead page in another language than the home page's is a translation's, not the site's own.
  const leadPages = (context.leadPages ?? []).filter((page) => !page.lang || !context.home?.lang || page.lang === context.home.lang);
  // A sentence that defines the site ("Simple DirectMedia Layer is a cross-platform library…") on a
  // page the home page lists that is named after the site, or on the first few it lists; else what
  // those first few say naming the site.
  const firstPages = leadPages.slice(0, FIRST_LEAD_PAGES);
  const titles = new Map(pages.map((page) => [page.url, page.title]));
  const namedAfterSite = leadPages.filter((page) => !firstPages.includes(page) && isSiteName(titles.get(page.url) ?? page.h1 ?? '', name));
  const fromDefinition = [...namedAfterSite, ...firstPages].flatMap((page) => [page.metaDescription, ...page.paragraphs].map(usable)).find((text) => text !== null && definesSite(text, name));
  const fromLead = firstPages.flatMap((page) => leadTexts(page, name).map(usable)).find(namesSite);
  const sharedMeta = mostCommon(pages.map((page) => page.metaDescription), 2);
  const source = fromHome ?? fromDefinition ?? fromLead ?? (sharedMeta && !isBoilerplateDescription(sharedMeta, phrases) ? sharedMeta : '');
  const summary = oneSentence(source, phrases);
  // A tagline ("The intuitive store for Vue.js") is the site's once it is headed by the site's name.
  const tagline = summary !== '' && !namesSite(summary) && !/[.!?…]$/.test(summary) && summary.split(/\s+/).length <= TAGLINE_MAX_WORDS;
  return { name, summary: tagline ? `${name}: ${summary}` : summary || partsSummary(name, context.home ?? null) };
}

/**
 * The word a text names the site by: the first of the site's name with four letters or more, not
 * an article ("Debian" in "Das Debian Administrationshandbuch", where "das" is in most German
 * sentences), else its first word (compact: "gtk40" for "Gtk-4.0").
 */
function nameWord(siteName: string): string {
  const words = siteName.split(/\s+/).map(compactKey).filter(Boolean);
  return words.find((word) => word.length >= 4) ?? words[0] ?? '';
}

/** At most this many words and no sentence's end, a summary that does not name its site is a tagline. */
const TAGLINE_MAX_WORDS = 12;

/** The copulas a definition opens with after its subject ("Acme is…", "Acme ist…", "Acme est…"). */
const COPULA = /^(?:is|are|ist|sind|est|sont|es|son|è|sono|é|são|jest|är|er|is)\s/i;

/**
 * Whether a text opens by defining the site: its name, or the words an acronym name stands for
 * ("Simple DirectMedia Layer" for SDL), then "is" (in one of a few languages).
 */
function definesSite(text: string, siteName: string): boolean {
  const name = normalizeWhitespace(siteName);
  const subject = name !== '' && text.toLowerCase().startsWith(name.toLowerCase()) ? name.length : spelledOutLength(text, name);
  if (subject === 0) return false;
  return COPULA.test(text.slice(subject).replace(/^\s*(?:\([^)]*\))?\s*/, ''));
}

/**
 * Whether a title is the site's name, or the words its acronym stands for, alone or beside the name
 * ("SDL: Simple DirectMedia Layer").
 */
function isSiteName(title: string, siteName: string): boolean {
  const parts = title.split(/\s*[:|–—·•»]\s+|\s+-\s+/u).filter(Boolean);
  const isName = (part: string) => compactKey(part) !== '' && (compactKey(part) === compactKey(siteName) || spelledOutLength(part, siteName) === part.length);
  return parts.length > 0 && parts.every(isName);
}

/** The length of the words opening `text` whose initials spell an acronym `name` ("SDL": "Simple DirectMedia Layer"), else 0. */
function spelledOutLength(text: string, name: string): number {
  if (!/^\p{Lu}{2,6}$/u.test(name)) return 0;
  const words = new RegExp(`^\\S+(?:\\s+\\S+){${name.length - 1}}`, 'u').exec(text)?.[0];
  if (!words) return 0;
  const initials = words.split(/\s+/).map((word) => word[0]).join('');
  return initials === name ? words.length : 0;
}

/**
 * A text that goes on from a title rather than saying what the site is: it opens in lower case
 * with a word that is not the site's name ("by Jane Doe", "for Acme 2.1.4 …"), or it points to an
 * address it writes out ("The latest version … can be found on-line at https://…").
 */
function isNoticeOrByline(text: string, siteName: string): boolean {
  if (writesOutAddress(text)) return true;
  const firstWord = /^[^\p{L}]*(\p{L}[\p{L}\p{N}]*)/u.exec(text)?.[1] ?? '';
  return /^\p{Ll}/u.test(firstWord) && !compactKey(siteName).includes(compactKey(firstWord));
}

/**
 * What a page the home page lists first says, when it may be about the whole site: a text that
 * names its own page ("The directive quick reference shows…") is about that page, unless that
 * page is named after the site ("git(1)": "Git is a fast, scalable…").
 */
function leadTexts(page: PageFacts, siteName: string): Array<string | null> {
  const title = compactKey(page.h1 ?? page.documentTitle ?? '');
  const aboutItself = title.length > 0 && !title.includes(nameWord(siteName));
  const { presentsAList } = phrasesFor(languageOf(page));
  const texts = [page.metaDescription, ...page.paragraphs].filter((text) => !text || !presentsAList.test(text));
  return aboutItself ? texts.filter((text) => !text || !compactKey(text).includes(title)) : texts;
}

/**
 * Where the site says nothing about itself, the parts its home page groups its contents under:
 * "Apache HTTP Server Version 2.4: Release Notes, Reference Manual, Users' Guide and Other Topics."
 */
function partsSummary(name: string, home: PageFacts | null): string {
  // Top-level groups only: a caption over nested entries ("Collapsed") or over a language menu's
  // entries is not one of the site's parts.
  const groups = [...new Set((home?.links ?? []).filter((link) => isEntry(link) && link.group && link.depth === 0).map((link) => link.group!))];
  if (groups.length < 3) return '';
  return `${name}: ${listOf(groups, 6, isEnglish(home ? languageOf(home) : null))}.`;
}

/**
 * Where neither the site's text nor its home page's groups say what it is, the parts its pages
 * were sectioned into, in order, the home page's own section aside: "Acme Theme: Example Site,
 * Shortcodes and Blog."
 */
export function sectionsSummary(name: string, pages: ReadonlyArray<Pick<DescribedPage, 'url' | 'section' | 'optional'>>, homeUrl: string | undefined, english: boolean): string {
  const homeSection = pages.find((page) => page.url === homeUrl)?.section;
  const sections = pages.filter((page) => !page.optional && page.section && page.section !== homeSection).map((page) => page.section!);
  const parts = [...new Set(sections)];
  return parts.length === 0 ? '' : `${name}: ${listOf(parts, 6, english)}.`;
}

/** "SQLite Home Page" → "SQLite"; "git(1) Manual Page" → "git"; "Welcome to Acme" → "Acme". */
export function cleanSiteName(name: string): string {
  return normalizeWhitespace(name.replace(/\p{Extended_Pictographic}\uFE0F?/gu, ''))
    .replace(/^welcome\s+to\s+(?:the\s+)?/i, '')
    .replace(/\s*[-–—:|]?\s*(?:home\s*page|homepage|manual\s+page|main\s+page|start\s+page)$/i, '')
    .replace(/\(\d\w*\)/g, '')
    .trim();
}

/** The first sentence, or two when the first is only a fragment ("Welcome!"). */
function oneSentence(text: string, phrases: Phrases): string {
  const sentences = splitSentences(text).filter((sentence) => !phrases.greeting.test(sentence));
  if (sentences.length === 0) return '';
  const first = sentences[0].split(/\s+/).length < 5 && sentences[1] ? `${sentences[0]} ${sentences[1]}` : sentences[0];
  return summarizeToSentences(first, 300);
}

/** "Acme — Widgets for everyone" names the site "Acme". */
function homeTitleName(home: PageText | undefined): string | null {
  if (!home?.title) return null;
  return titleParts(home.title)[0] ?? home.title;
}

function mostCommon(values: readonly (string | null | undefined)[], minCount = 1): string | null {
  const counts = new Map<string, { value: string; count: number }>();
  for (const value of values) {
    if (!value) continue;
    const key = compactKey(value);
    const entry = counts.get(key) ?? { value, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  let best: { value: string; count: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best && best.count >= minCount ? best.value : null;
}

/** The page at the site's URL, else the one with the shortest path. */
export function findHomePage<T extends { url: string }>(siteUrl: string, pages: readonly T[]): T | undefined {
  const pathLength = (url: string) => {
    try {
      return new URL(url).pathname.replace(/\/(?:index\.\w+)?$/, '').length;
    } catch {
      return Infinity;
    }
  };
  const normalizedSite = siteUrl.replace(/\/$/, '');
  return (
    pages.find((page) => page.url.replace(/\/$/, '') === normalizedSite) ??
    [...pages].sort((a, b) => pathLength(a.url) - pathLength(b.url))[0]
  );
}
