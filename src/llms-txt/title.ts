// Page titles: removing the " | Site name" part that pages repeat, on one page or across a site.
import { compactKey, normalizeWhitespace, wordCount } from './text.ts';

// A separator needs a space on both sides, so "e-mail" or "Node.js/Deno" stay whole.
const SEPARATOR = /\s+(?:[|\-–—·•»>\/\\:~]|::)\s+/u;
const SEPARATOR_GLOBAL = new RegExp(SEPARATOR.source, 'gu');

/** Splits "A | B – C" into ["A", "B", "C"]; a title without separators gives one part. */
export function titleParts(title: string): string[] {
  return title.split(SEPARATOR).map((part) => part.trim()).filter(Boolean);
}

/**
 * Whether a title part names the site: it equals one of the known names or the main label of
 * the host ("GitHub" for docs.github.com), or (loosely) one starts with the other.
 */
export function isSiteNamePart(part: string, siteNames: readonly string[], loose = true): boolean {
  const key = compactKey(part);
  if (key.length < 2) return false;
  return siteNames.some((name) => {
    const nameKey = compactKey(name);
    if (nameKey.length < 2) return false;
    if (nameKey === key) return true;
    // Loosely, "GitHub Docs" names the site github.com too.
    return loose && key.length >= 4 && nameKey.length >= 4 && (nameKey.startsWith(key) || key.startsWith(nameKey));
  });
}

/** Names a page's host stands for: "docs.github.com" gives "github" and "docs.github.com". */
export function hostNames(url: string): string[] {
  try {
    const host = new URL(url).hostname.replace(/^www\d?\./, '');
    const labels = host.split('.');
    const main = labels.length >= 2 ? labels[labels.length - 2] : labels[0];
    return [host, main].filter((name): name is string => Boolean(name));
  } catch {
    return [];
  }
}

/**
 * Removes leading or trailing title parts that repeat the site's name:
 * "Install | Acme Docs" → "Install" when the site is "Acme Docs". Never empties the title.
 */
export function stripSiteName(title: string, siteNames: readonly string[]): string {
  const clean = normalizeWhitespace(title);
  const separators = [...clean.matchAll(SEPARATOR_GLOBAL)];
  if (separators.length === 0) return clean;
  // Trailing part(s): cut at the first separator after which every part names the site.
  for (const separator of separators) {
    const tail = clean.slice(separator.index + separator[0].length);
    if (titleParts(tail).every((part) => isSiteNamePart(part, siteNames))) {
      const head = clean.slice(0, separator.index).trim();
      return head ? stripSiteName(head, siteNames) : clean;
    }
  }
  const first = separators[0];
  const head = clean.slice(0, first.index);
  // A leading part must name the site exactly: "React Hooks - Overview" keeps "React Hooks".
  if (isSiteNamePart(head, siteNames, false)) {
    const rest = clean.slice(first.index + first[0].length).trim();
    if (rest) return rest;
  }
  return clean;
}

/**
 * Finds a title prefix or suffix that most pages of a site share ("… | Acme Docs"): that is the
 * site's name as its pages spell it. Needs at least 3 titles sharing it, half of the titles that
 * have parts at all (pages whose og:title is the bare name show no " | Name" to share) and a
 * quarter of all titles.
 */
export function findCommonTitleAffix(titles: readonly string[]): string | null {
  if (titles.length < 3) return null;
  const counts = new Map<string, { text: string; count: number }>();
  let withParts = 0;
  for (const title of titles) {
    const parts = titleParts(normalizeWhitespace(title));
    if (parts.length < 2) continue;
    withParts++;
    const seen = new Set<string>();
    for (const part of [parts[0], parts[parts.length - 1]]) {
      const key = compactKey(part);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const entry = counts.get(key) ?? { text: part, count: 0 };
      entry.count++;
      counts.set(key, entry);
    }
  }
  let best: { text: string; count: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best && best.count >= Math.max(3, withParts / 2, titles.length / 4) ? best.text : null;
}

/**
 * What most titles of a site begin or end with, past a separator: "GNU Foo Manual: " before each
 * node's name, " (Foo 3.1 API)" after each class's, ": Foo Reference Manual" after each section's. Needs at least 3 titles, more than half of
 * them sharing it; the most shared, on a tie the longest.
 */
export function findSharedTitleEnds(titles: readonly string[]): { lead: string | null; tail: string | null } {
  const leads = new Map<string, number>();
  const tails = new Map<string, number>();
  for (const title of titles) {
    const seenLeads = new Set<string>();
    const seenTails = new Set<string>();
    for (const match of title.matchAll(LEAD_END)) seenLeads.add(title.slice(0, match.index + match[0].length));
    for (const match of title.matchAll(TAIL_START)) {
      const tail = title.slice(match.index);
      if (match[0].endsWith('(') ? tail.endsWith(')') : true) seenTails.add(tail);
    }
    for (const lead of seenLeads) leads.set(lead, (leads.get(lead) ?? 0) + 1);
    for (const tail of seenTails) tails.set(tail, (tails.get(tail) ?? 0) + 1);
  }
  const needed = Math.max(3, Math.floor(titles.length / 2) + 1);
  const mostShared = (counts: Map<string, number>) => {
    let best: string | null = null;
    for (const [text, count] of counts) {
      const bestCount = best === null ? 0 : counts.get(best)!;
      if (count >= needed && (count > bestCount || (count === bestCount && text.length > best!.length))) best = text;
    }
    return best;
  };
  return { lead: mostShared(leads), tail: mostShared(tails) };
}

/** A lead of at most this many words, with no separator after it, can be one most titles share… */
const MAX_LEAD_WORDS = 3;
/** …when what follows it has a letter: "Chapter " before each chapter's number is no lead. */
const NAMES_SOMETHING = /\p{L}/u;

/**
 * The words most titles open with, with no separator after them: "Apache Module " before each
 * module's name. The longest such lead more than half of the titles (at least 3) share and go
 * on from; null when none does.
 */
export function findSharedLeadWords(titles: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const title of titles) {
    const words = title.split(' ');
    for (let length = 1; length <= MAX_LEAD_WORDS && length < words.length && NAMES_SOMETHING.test(words.slice(length).join(' ')); length++) {
      const lead = `${words.slice(0, length).join(' ')} `;
      counts.set(lead, (counts.get(lead) ?? 0) + 1);
    }
  }
  const needed = Math.max(3, Math.floor(titles.length / 2) + 1);
  let best: string | null = null;
  for (const [lead, count] of counts) if (count >= needed && (!best || lead.length > best.length)) best = lead;
  return best;
}

/** A title without the lead and tail most titles share (see findSharedTitleEnds), when something is left. */
export function withoutSharedEnds(title: string, { lead, tail }: { lead: string | null; tail: string | null }): string {
  let rest = title;
  if (lead && rest.startsWith(lead) && rest.length > lead.length) rest = rest.slice(lead.length).trim();
  if (tail && rest.endsWith(tail) && rest.length > tail.length) rest = rest.slice(0, -tail.length).trim();
  return rest || title;
}

/** The site's name in the lead or tail most titles share: "Foo 3.1 API" from " (Foo 3.1 API)". */
export function nameFromSharedEnds({ lead, tail }: { lead: string | null; tail: string | null }): string | null {
  if (lead) return lead.slice(0, lead.search(LEAD_END_AT_END)).trim() || null;
  if (tail) return tail.trim().replace(/^[:|·•—–-]\s/, '').replace(/^\((.*)\)$/, '$1').trim() || null;
  return null;
}

const LEAD_END_AT_END = /(?::|\s[|·•—–-])\s$/;
const LEAD_END = /(?::|\s[|·•—–-])\s/g;
const TAIL_START = /:\s|\s(?:[|·•—–-]\s|\()/g;

// Separators of a <title>'s parts; a colon is not one here ("Python: Lists" is one title).
const DOCUMENT_TITLE_SEPARATOR = /\s+[|\-–—\\\/>»·•]\s+/gu;
const HIERARCHY_SEPARATOR = /\s[\\\/>»]\s/u;

/**
 * Readability's rule for a page's <title> (used when the page has no og:title): drop the last
 * " | part" (usually the site), or the first one when too little is left; a result of four
 * words or fewer that lost more than one word falls back to the whole title. A title that is
 * very short or very long gives way to the page's only <h1>.
 */
export function trimDocumentTitle(title: string, onlyH1: string | null): string {
  const original = normalizeWhitespace(title);
  const separators = [...original.matchAll(DOCUMENT_TITLE_SEPARATOR)];
  let current = original;
  const hierarchical = HIERARCHY_SEPARATOR.test(original);
  if (separators.length > 0) {
    const last = separators[separators.length - 1];
    current = original.slice(0, last.index);
    if (wordCount(current) < 3) {
      const first = separators[0];
      current = original.slice(first.index + first[0].length);
    }
  } else if ((original.length > 150 || original.length < 15) && onlyH1) {
    current = onlyH1;
  }
  current = normalizeWhitespace(current);
  const words = wordCount(current);
  const wordsWithoutSeparators = wordCount(original.replace(/[|\-–—\\\/>»·•]+/gu, ''));
  if (words <= 4 && (!hierarchical || words !== wordsWithoutSeparators - 1)) return original;
  return current;
}
