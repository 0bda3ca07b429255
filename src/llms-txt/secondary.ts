// Pages a reader rarely needs first: legal text, indexes, bibliographies, release notes, search.
// They are ranked last, never vouch for other pages, and are listed under `## Optional`.
import { findOptionalPages } from './sections.ts';
import type { PageFacts } from './page-facts.ts';
import { withoutNumbering } from './text.ts';

const INDEX_TITLE = /^(?:index(?:\s+[–—-]\s+\S+)?|general\s+index|(?:global\s+)?module\s+index|python\s+module\s+index|\S+\s+index|indices(?:\s+and\s+tables)?)$/i;
const SECONDARY_TITLE =
  /^(?:legal\s+notice|copyright|licen[cs]es?(?:\s+and\s+\w+)?|history\s+and\s+licen[cs]e|terms(?:\s+of\s+\w+)?|privacy(?:\s+policy)?|bibliography|glossary\s+[–—-]\s+\S|release\s+notes?(?:\s+.*)?|release\s+\d[\w.]*|changelog|change\s*log|changes\s+in\s+.*|what['’]?s\s+new.*|(?:overview\s+of\s+)?new\s+features\b.*|search(?:\s+page|\s+results)?|(?:.+\s)?contents|site\s*map|about\s+(?:these|the|this)\s+documents?(?:ation)?|dealing\s+with\s+bugs|reporting\s+bugs|copyright\s+.*)$/i;

/** Title-based test, for pages whose URL says nothing ("bookindex.html", "legalnotice.html"). */
export function isSecondaryTitle(title: string | null | undefined): boolean {
  return matches(INDEX_TITLE, title) || matches(SECONDARY_TITLE, title);
}

function matches(pattern: RegExp, title: string | null | undefined): boolean {
  return Boolean(title) && pattern.test(withoutNumbering(title!.trim()));
}

/**
 * The secondary pages among outlined pages, by URL (archives, legal paths, old versions) or by
 * title. An index is one of the site's parts when its home page names it so: Apache's lists its
 * "Module Index" as "Modules", the part of the manual every module is in, where Python's lists its
 * "Global Module Index" as such, an alphabetical index beside the Library Reference.
 */
export function findSecondaryPages(outlines: readonly PageFacts[], home?: PageFacts): Set<string> {
  const secondary = findOptionalPages(outlines.map((outline) => outline.url));
  const namesByHome = new Map<string, string[]>();
  for (const link of home?.links ?? []) namesByHome.set(link.url, [...(namesByHome.get(link.url) ?? []), link.text]);
  for (const outline of outlines) {
    const titles = titlesOf(outline);
    const names = namesByHome.get(outline.url);
    const namedAsPart = names !== undefined && !names.some(isSecondaryTitle);
    if (titles.some((title) => matches(SECONDARY_TITLE, title)) || (titles.some((title) => matches(INDEX_TITLE, title)) && !namedAsPart)) {
      secondary.add(outline.url);
    }
  }
  return secondary;
}

/** Whether the page's heading or title names it secondary (an index, a licence, release notes…). */
export function hasSecondaryTitle(outline: PageFacts): boolean {
  return titlesOf(outline).some(isSecondaryTitle);
}

function titlesOf(outline: PageFacts): Array<string | null | undefined> {
  return [outline.h1, outline.documentTitle?.split(/\s[|–—-]\s/)[0]];
}
