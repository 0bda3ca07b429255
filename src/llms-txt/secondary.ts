// Pages a reader rarely needs first: legal text, indexes, bibliographies, release notes, search.
// They are ranked last, never vouch for other pages, and are listed under `## Optional`.
import { findOptionalPages } from './sections.ts';
import type { PageOutline } from './outline.ts';
import { withoutNumbering } from './text.ts';

const SECONDARY_TITLE =
  /^(?:legal\s+notice|copyright|licen[cs]es?(?:\s+and\s+\w+)?|history\s+and\s+licen[cs]e|terms(?:\s+of\s+\w+)?|privacy(?:\s+policy)?|index(?:\s+[–—-]\s+\S+)?|general\s+index|(?:global\s+)?module\s+index|python\s+module\s+index|\S+\s+index|indices(?:\s+and\s+tables)?|bibliography|glossary\s+[–—-]\s+\S|release\s+notes?(?:\s+.*)?|release\s+\d[\w.]*|changelog|change\s*log|changes\s+in\s+.*|what['’]?s\s+new.*|(?:overview\s+of\s+)?new\s+features\b.*|search(?:\s+page|\s+results)?|(?:.+\s)?contents|site\s*map|about\s+(?:these|the|this)\s+documents?(?:ation)?|dealing\s+with\s+bugs|reporting\s+bugs|copyright\s+.*)$/i;

/** Title-based test, for pages whose URL says nothing ("bookindex.html", "legalnotice.html"). */
export function isSecondaryTitle(title: string | null | undefined): boolean {
  return Boolean(title) && SECONDARY_TITLE.test(withoutNumbering(title!.trim()));
}

/** The secondary pages among outlined pages, by URL (archives, legal paths, old versions) or by title. */
export function findSecondaryPages(outlines: readonly PageOutline[]): Set<string> {
  const secondary = findOptionalPages(outlines.map((outline) => outline.url));
  for (const outline of outlines) if (hasSecondaryTitle(outline)) secondary.add(outline.url);
  return secondary;
}

/** Whether the page's heading or title names it secondary (an index, a licence, release notes…). */
export function hasSecondaryTitle(outline: PageOutline): boolean {
  return isSecondaryTitle(outline.h1) || isSecondaryTitle(outline.documentTitle?.split(/\s[|–—-]\s/)[0]);
}
