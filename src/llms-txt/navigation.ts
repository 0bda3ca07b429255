// The site's navigation as one tree, from the link blocks its pages repeat: a sidebar (or a
// navigation bar) that a tenth of the pages or more carry, whichever generator wrote it. Each
// entry keeps the labels above it on the pages that show it: the caption of its group (a heading,
// a caption, a <summary>, a list item of text alone) and the entries it nests under. A sidebar
// that shows only the open part's pages on each page is pieced together: an entry first seen on a
// later page goes right after the entry it follows there.
import type { PageLink } from './page-facts.ts';
import { linkedNode, type MapNode, type SiteMap } from './site-map.ts';
import {
  CONTENTS_PAGE_MIN_ENTRIES as MIN_CONTENTS_ENTRIES,
  CONTENTS_PAGE_SHARE as CONTENTS_SHARE,
  NAVIGATION_MIN_PAGES as MIN_PAGES,
  NAVIGATION_ROOT_SHARE as ROOT_SHARE,
  NAVIGATION_SHARE as REPEATED_SHARE,
} from './tuning.ts';

export interface NavigationEntry {
  /** The labels from the top of the tree down to the entry's own link text. */
  labels: string[];
  /** Position in the tree, read depth-first. */
  order: number;
}

export type Navigation = Map<string, NavigationEntry>;

/**
 * The navigation tree of the site's primary pages, by page key; empty when no link block repeats.
 * Pages are read home page first, then by URL, so a site gives the same tree whatever the crawl's order.
 */
export function findNavigation(home: MapNode, { nodes, byKey }: Pick<SiteMap, 'nodes' | 'byKey'>): Navigation {
  const pages = nodes.filter((node) => !node.secondary || node === home);
  const keyOf = (link: PageLink) => linkedNode(byKey, link.url)?.key ?? '';
  const minPages = Math.max(MIN_PAGES, Math.ceil(REPEATED_SHARE * pages.length));
  // Where pages mark their navigation blocks, lists in their content (an API page's lists of the
  // types it uses, repeated on many pages) are no part of it.
  const marked = pages.filter((page) => page.outline.links.some((link) => link.block === 'navigation')).length >= minPages;
  const isEntry = (link: PageLink) => link.block === 'navigation' || (link.block === 'toc' && !marked);
  const { carriedBy, captions } = countEntries(pages, keyOf, isEntry);
  const captionOf = (key: string): string | null => {
    const counts = captions.get(key);
    if (!counts) return null;
    const caption = mostCommon(counts);
    return counts.get(caption)! * 2 >= (carriedBy.get(key) ?? 0) ? caption : null;
  };

  // A sidebar shows a closed group's entries only on that group's pages: an entry under a repeated one counts from two pages.
  const repeated = (links: readonly PageLink[], index: number): boolean => {
    const carried = carriedBy.get(keyOf(links[index])) ?? 0;
    return carried >= minPages || (carried >= 2 && links[index].parent >= 0 && repeated(links, links[index].parent));
  };
  // The labels each entry sits under, with how many pages say so: a version switcher's link to the
  // same page in the current version says less often where it belongs than the sidebar does.
  const readingOrder = [...pages].sort((a, b) => a.order - b.order || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const labelCounts = new Map<string, Map<string, number>>();
  const eachEntry = (visit: (page: MapNode, key: string, labels: string) => void, withOwn = false) => {
    for (const page of readingOrder) {
      const links = page.outline.links;
      links.forEach((link, index) => {
        const key = keyOf(link);
        if (!isEntry(link) || (key === page.key && !withOwn) || !repeated(links, index)) return;
        visit(page, key, labelsAbove(links, index, (at) => captionOf(keyOf(links[at]))).join(LABEL_SEPARATOR));
      });
    }
  };
  eachEntry((_, key, labels) => {
    const counts = labelCounts.get(key) ?? new Map<string, number>();
    counts.set(labels, (counts.get(labels) ?? 0) + 1);
    labelCounts.set(key, counts);
  });
  const labelsOf = new Map([...labelCounts].map(([key, counts]) => [key, mostCommon(counts)]));
  // Placed where a page shows the entry under those labels (its own entry too): after the entry
  // before it there, or before the entry after it.
  const shown = new Map<MapNode, string[]>();
  eachEntry((page, key, labels) => {
    const keys = shown.get(page) ?? [];
    // A link a page repeats (the site's name over each group) is placed by its first showing.
    if (labels === labelsOf.get(key) && !keys.includes(key)) shown.set(page, [...keys, key]);
  }, true);
  const sequence = mergedSequence(shown.values());
  const labels = withoutSharedRoot(new Map(sequence.map((key) => [key, labelsOf.get(key)!.split(LABEL_SEPARATOR)])), home.key);
  return new Map(sequence.map((key, order) => [key, { labels: labels.get(key)!, order }]));
}

/**
 * The entries' labels without the first one where it names the whole site: the home page's own
 * entry at the root of the tree, with nearly every other entry under it (NAVIGATION_ROOT_SHARE; a
 * few reached from elsewhere keep their labels), or one caption over every entry. The entries
 * below it are the site's parts.
 */
function withoutSharedRoot(labels: Map<string, string[]>, homeKey: string): Map<string, string[]> {
  const below = [...labels].filter(([key]) => key !== homeKey).map(([, entryLabels]) => entryLabels);
  const homeLabels = labels.get(homeKey);
  const homeRoot = homeLabels?.length === 1 ? homeLabels[0] : undefined;
  const under = (entryLabels: string[], root: string) => entryLabels.length > 1 && entryLabels[0] === root;
  const shareUnder = (root: string) => below.filter((entryLabels) => under(entryLabels, root)).length / below.length;
  const caption = below[0]?.[0];
  const root = homeRoot !== undefined && shareUnder(homeRoot) >= ROOT_SHARE ? homeRoot : caption !== undefined && shareUnder(caption) === 1 ? caption : undefined;
  if (root === undefined) return labels;
  return withoutSharedRoot(new Map([...labels].map(([key, entryLabels]) => [key, key !== homeKey && under(entryLabels, root) ? entryLabels.slice(1) : entryLabels])), homeKey);
}

/** How many pages carry each entry, and how often each entry sits under each caption (a caption that is the page's own heading differs between pages). */
function countEntries(pages: readonly MapNode[], keyOf: (link: PageLink) => string, isEntry: (link: PageLink) => boolean) {
  const carriedBy = new Map<string, number>();
  const captions = new Map<string, Map<string, number>>();
  for (const page of pages) {
    const seen = new Set<string>();
    for (const link of page.outline.links) {
      const key = keyOf(link);
      // A link to the page itself marks where the reader is (or switches its version): no entry of a block it repeats.
      if (!isEntry(link) || key === '' || key === page.key || seen.has(key)) continue;
      seen.add(key);
      carriedBy.set(key, (carriedBy.get(key) ?? 0) + 1);
      if (link.group) {
        const counts = captions.get(key) ?? new Map<string, number>();
        counts.set(link.group, (counts.get(link.group) ?? 0) + 1);
        captions.set(key, counts);
      }
    }
  }
  return { carriedBy, captions };
}

/** The entries each page shows, in one sequence: each after the entry before it on a page, or before the entry after it. */
function mergedSequence(shownByPage: Iterable<string[]>): string[] {
  const sequence: string[] = [];
  for (const keys of shownByPage) {
    keys.forEach((key, index) => {
      if (sequence.includes(key)) return;
      const before = keys.slice(0, index).reverse().find((other) => sequence.includes(other));
      const after = keys.slice(index + 1).find((other) => sequence.includes(other));
      const at = before !== undefined ? sequence.indexOf(before) + 1 : after !== undefined ? sequence.indexOf(after) : sequence.length;
      sequence.splice(at, 0, key);
    });
  }
  return sequence;
}

/**
 * Where no link block repeats (a theme whose only sidebar is each page's own headings), a page
 * other than the home page whose content is a list of most of the site's pages (a "Sitemap" page
 * the menu bar links to) is the tree: its entries in its order, each under the entries its list
 * nests it in. Its own heading over the whole list captions nothing. Null when no page is one.
 */
export function findContentsPage(home: MapNode, { nodes, byKey }: Pick<SiteMap, 'nodes' | 'byKey'>): Navigation | null {
  const primary = nodes.filter((node) => !node.secondary && node !== home).length;
  const needed = Math.max(MIN_CONTENTS_ENTRIES, Math.ceil(CONTENTS_SHARE * primary));
  let best: { page: MapNode; entries: number[] } | null = null;
  for (const page of nodes) {
    if (page === home) continue;
    const links = page.outline.links;
    const seen = new Set<string>();
    const entries: number[] = [];
    links.forEach((link, index) => {
      const target = link.block === 'toc' ? linkedNode(byKey, link.url) : undefined;
      if (!target || target === page || target === home || seen.has(target.key)) return;
      seen.add(target.key);
      entries.push(index);
    });
    const listed = entries.filter((index) => !linkedNode(byKey, links[index].url)!.secondary).length;
    if (listed >= needed && (!best || entries.length > best.entries.length)) best = { page, entries };
  }
  if (!best) return null;
  const { page, entries } = best;
  const links = page.outline.links;
  const ownHeading = page.outline.h1;
  const captionOf = (index: number) => (links[index].group && links[index].group !== ownHeading ? links[index].group : null);
  return new Map(entries.map((index, order) => [linkedNode(byKey, links[index].url)!.key, { labels: labelsAbove(links, index, captionOf), order }]));
}

const LABEL_SEPARATOR = '\n';

/** The value counted most often; the first counted on a tie. */
function mostCommon(counts: Map<string, number>): string {
  let best = '';
  let bestCount = 0;
  for (const [value, count] of counts) if (count > bestCount) [best, bestCount] = [value, count];
  return best;
}

/** [caption of the top entry], the texts of the entries a link nests under on its page, its own text. */
function labelsAbove(links: readonly PageLink[], index: number, captionOf: (index: number) => string | null): string[] {
  const labels: string[] = [];
  let top = index;
  for (let at = index; at >= 0; at = links[at].parent) {
    labels.unshift(links[at].text);
    top = at;
  }
  const caption = captionOf(top);
  return caption ? [caption, ...labels] : labels;
}
