// Site-level decisions the pages make together: the site's name and summary, and titles and
// descriptions that turn out to be site-wide boilerplate once all pages are seen.
import { findRepeatedDescriptions } from './boilerplate.ts';
import { findHomePage } from './describe.ts';
import { CONTENT_DESCRIPTION_MAX_CHARS, titleFromUrl, type ExtractedPage } from './extract.ts';
import { compactKey, summarizeToSentences } from './text.ts';
import { findCommonTitleAffix, hostNames, stripSiteName, titleParts } from './title.ts';
import type { SiteSummary } from './types.ts';

export interface SimplePage {
  url: string;
  title: string;
  description: string;
}

/**
 * The simple method's titles and descriptions, once the whole site is known: a " | Site" part
 * most titles share is dropped; a title most pages share gives way to the page's <h1>; a meta
 * description most pages share gives way to the page's first paragraph.
 */
export function refineSimplePages(pages: readonly ExtractedPage[]): SimplePage[] {
  const affix = findCommonTitleAffix(pages.map((page) => page.title)) ?? findCommonTitleAffix(pages.map((page) => page.fullTitle ?? ''));
  const titles = pages.map((page) => (affix ? stripSiteName(page.title, [affix]) : page.title));
  const isRepeatedTitle = findRepeatedDescriptions(titles);
  const isRepeatedMeta = findRepeatedDescriptions(pages.map((page) => page.metaDescription));

  const refined = pages.map((page, index) => {
    let title = titles[index];
    if (isRepeatedTitle(title)) {
      const h1 = page.h1 && !isRepeatedTitle(page.h1) ? page.h1 : null;
      title = h1 ?? titleFromUrl(page.url);
    }
    let description = page.description;
    if (page.metaDescription && isRepeatedMeta(page.metaDescription)) {
      description = page.firstParagraph ? summarizeToSentences(page.firstParagraph, CONTENT_DESCRIPTION_MAX_CHARS) : '';
    }
    return { url: page.url, title, description };
  });

  // A paragraph every page starts with (a banner, a notice) describes none of them.
  const isRepeatedDescription = findRepeatedDescriptions(refined.map((page) => page.description));
  for (const page of refined) if (isRepeatedDescription(page.description)) page.description = '';
  return refined;
}

/**
 * The site's name (the pages' og:site_name, else the " | Name" their titles share, else the home
 * page's title, else the host) and summary (the home page's meta description, else its first
 * paragraph, else the description most pages share).
 */
export function inferSite(siteUrl: string, pages: readonly ExtractedPage[]): SiteSummary {
  const home = findHomePage(siteUrl, pages);
  const name =
    mostCommon(pages.map((page) => page.siteName)) ??
    findCommonTitleAffix(pages.map((page) => page.fullTitle ?? page.title)) ??
    homeTitleName(home) ??
    hostNames(siteUrl)[0] ??
    siteUrl;
  const sharedMeta = mostCommon(pages.map((page) => page.metaDescription), 2);
  const summary = home?.metaDescription
    ? summarizeToSentences(home.metaDescription, 300)
    : home?.firstParagraph
      ? summarizeToSentences(home.firstParagraph, 300)
      : sharedMeta
        ? summarizeToSentences(sharedMeta, 300)
        : '';
  return { name, summary };
}

/** "Acme — Widgets for everyone" names the site "Acme". */
function homeTitleName(home: ExtractedPage | undefined): string | null {
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
