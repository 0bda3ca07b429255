// Sections named as the site names its parts: each listed page belongs to the home page's
// contents entry its navigation path starts from ("II. The SQL Language" → "The SQL Language"),
// or to the heading or caption that entry sits under when the home page groups its entries
// ("Get started", "User Guides"). A part holding more than 40% of the links gives its largest
// sub-parts sections of their own. Null when the site's navigation does not yield 3 sections;
// the caller then falls back to URL folders.
import { isEntry, type PageLink } from './page-facts.ts';
import { findContentsPage, findNavigation, type Navigation } from './navigation.ts';
import { capSections, mergeByName, OVERVIEW, splitLargeParts, type Label, type MapSection, type Part } from './section-parts.ts';
import { importance, linkedNode, sharedFolders, type MapNode, type SiteMap } from './site-map.ts';
import { MIN_SECTIONS, SECTION_MAX_SHARE as MAX_SHARE } from './tuning.ts';

export interface SiteSections {
  sections: MapSection[];
  /** Pages moved to Optional: the least cited of a part that would hold more than 40% of the links (see trimOversized). */
  overflow: MapNode[];
}

/**
 * Sections for the chosen primary (non-secondary) pages, in the site's reading order. `titleOf`: a
 * chosen page's title as listed, for a part the home page names only in running text.
 */
export function sectionsFromMap(map: SiteMap, chosen: readonly MapNode[], titleOf: (node: MapNode) => string | undefined = () => undefined): SiteSections | null {
  const home = map.home;
  if (!home) return null;
  const tree = siteNavigation(home, map, chosen);
  const navigation = tree?.navigation ?? null;
  const grouped = usesGroups(home, chosen);
  const paths = new Map(chosen.map((node) => [node, navigation ? navigationPath(node, home, navigation) : labelPath(node, home, grouped, titleOf)]));
  const placedBeside = navigation ? placeUnderFolderEntries(paths, chosen, home, navigation, map) : placeWithFolder(paths, chosen);
  const overview: Part = { id: 'overview', name: OVERVIEW, depth: -1, nodes: [], splittable: false };
  const parts: Part[] = [];
  for (const node of chosen) {
    const label = paths.get(node)![0];
    if (!label) {
      overview.nodes.push(node);
      continue;
    }
    let part = parts.find((candidate) => candidate.id === label.id);
    if (!part) parts.push((part = { id: label.id, name: label.name, depth: 0, nodes: [], splittable: true }));
    part.nodes.push(node);
  }
  splitLargeParts(parts, paths, chosen.length);

  // A contents page names each of its entries a part of the site, however short, and so does a
  // home page whose contents nest (a manual's chapters, each with its sections on its one page);
  // elsewhere a part of one page joins the overview, unless it is one of the groups a home page
  // heads and the others would be too few to map the site (a small site's two questions).
  const chapters = nestedHomeEntries(home);
  const headedGroup = (part: Part) => part.id.startsWith('group:') && parts.length < MIN_SECTIONS;
  for (let i = parts.length - 1; i >= 0 && !tree?.fromContentsPage; i--) {
    if (parts[i].nodes.length !== 1 || chapters.has(parts[i].id) || headedGroup(parts[i])) continue;
    overview.nodes.push(...parts.splice(i, 1)[0].nodes);
  }
  const sections = mergeByName([...(overview.nodes.length > 0 ? [overview] : []), ...parts], tree?.fromContentsPage ?? false);
  if (sections.length < MIN_SECTIONS) return null;
  // A page placed beside a page of its folder is read right after it.
  const readingOrder = navigation ? navigationOrder(home, navigation) : (node: MapNode) => node.order;
  const position = (node: MapNode) => readingOrder(placedBeside.get(node) ?? node);
  const inReadingOrder = (a: MapNode, b: MapNode) => position(a) - position(b) || Number(placedBeside.has(a)) - Number(placedBeside.has(b)) || a.order - b.order;
  for (const section of sections) section.nodes.sort(inReadingOrder);
  const byFirstPage = (a: MapSection, b: MapSection) => inReadingOrder(a.nodes[0], b.nodes[0]);
  const [first, ...rest] = sections;
  const ordered = first.name === OVERVIEW ? [first, ...rest.sort(byFirstPage)] : sections.sort(byFirstPage);
  const capped = capSections(ordered);
  const isEntry = navigation ? (node: MapNode) => node === home || navigation.has(node.key) : (node: MapNode) => node === home || node.via === home;
  const overflow = trimOversized(capped, isEntry);
  return { sections: capped.filter((section) => section.nodes.length > 0), overflow };
}

/** The ids of the home page's top-level contents entries when at least three of them have entries nested under them. */
function nestedHomeEntries(home: MapNode): Set<string> {
  const links = home.outline.links;
  const withChildren = new Set(links.filter((link) => link.parent >= 0 && links[link.parent].depth === 0).map((link) => link.parent));
  if (withChildren.size < MIN_SECTIONS) return new Set();
  return new Set(links.flatMap((link, index) => (isEntry(link) && link.depth === 0 ? [`home:${index}`] : [])));
}

/**
 * Pages in the order they are kept: the most important of each group their index lists them in
 * (a reference index's "Interfaces", "Type Aliases", "Functions"), then the second of each, and so
 * on; a part trimmed from the end keeps its breadth.
 */
function inBreadth(nodes: readonly MapNode[]): MapNode[] {
  const groups = new Map<string, MapNode[]>();
  for (const node of [...nodes].sort((a, b) => importance(a) - importance(b) || a.order - b.order)) {
    const group = `${node.via?.key ?? ''}\n${node.viaLink?.group ?? ''}`;
    groups.set(group, [...(groups.get(group) ?? []), node]);
  }
  const kept: MapNode[] = [];
  for (let rank = 0; kept.length < nodes.length; rank++) for (const members of groups.values()) if (members[rank]) kept.push(members[rank]);
  return kept;
}

/**
 * A part that would hold more than 40% of the links (a reference's hundred symbol pages beside a
 * guide of twenty) keeps its navigation entries and the most cited pages of each group its index
 * lists: the others below the navigation go to Optional until it holds 40%.
 */
function trimOversized(sections: MapSection[], isEntry: (node: MapNode) => boolean): MapNode[] {
  const overflow: MapNode[] = [];
  let total = sections.reduce((sum, section) => sum + section.nodes.length, 0);
  for (;;) {
    const largest = sections.reduce<MapSection | null>((best, section) => (!best || section.nodes.length > best.nodes.length ? section : best), null);
    if (!largest || largest.nodes.length <= MAX_SHARE * total) return overflow;
    const leastCited = inBreadth(largest.nodes.filter((node) => !isEntry(node))).reverse();
    if (leastCited.length === 0) return overflow;
    for (const node of leastCited) {
      if (largest.nodes.length <= MAX_SHARE * total) break;
      largest.nodes.splice(largest.nodes.indexOf(node), 1);
      overflow.push(node);
      total--;
    }
    if (largest.nodes.length > MAX_SHARE * total) return overflow;
  }
}

/**
 * The site's repeated navigation (see navigation.ts), or where none repeats its contents page,
 * when it names the parts: its top-level labels sort the chosen pages into two or more groups,
 * and the home page's own contents (its contents links that are not that navigation) do not list
 * three parts themselves.
 */
function siteNavigation(home: MapNode, map: SiteMap, chosen: readonly MapNode[]): { navigation: Navigation; fromContentsPage: boolean } | null {
  const repeated = findNavigation(home, map);
  // A home page that is a contents page itself keeps its own parts (see labelPath).
  const homeContents = home.outline.links.filter((link) => link.block === 'toc' && linkedNode(map.byKey, link.url) !== undefined).length;
  const navigation = repeated.size > 0 ? repeated : homeContents < MIN_SECTIONS ? findContentsPage(home, map) : null;
  if (!navigation) return null;
  const tops = new Set(chosen.map((node) => navigationPath(node, home, navigation)[0]?.id).filter(Boolean));
  // Two groups and the pages above them (the home page) make three sections.
  if (tops.size < MIN_SECTIONS - 1) return null;
  const ownEntries = home.outline.links.filter((link) => {
    const target = linkedNode(map.byKey, link.url);
    return isEntry(link) && link.depth === 0 && target !== undefined && !navigation.has(target.key);
  });
  return ownEntries.length >= MIN_SECTIONS ? null : { navigation, fromContentsPage: navigation !== repeated };
}

/** The labels of the navigation entry a page is, or is reached from, then each link followed from there. */
function navigationPath(node: MapNode, home: MapNode, navigation: Navigation): Label[] {
  const chain: MapNode[] = [];
  let step: MapNode | null = node;
  for (; step && step !== home && !navigation.has(step.key); step = step.via) chain.unshift(step);
  if (!step || step === home) return [];
  const names = navigation.get(step.key)!.labels;
  // Groups by their labels' text (one part however many pages repeat it), an entry alike: the entry
  // with the entries nested under it is one group.
  const labels = names.map((name, index) => ({ id: `nav:${names.slice(0, index + 1).join('\n').toLowerCase()}`, name }));
  for (const below of chain) labels.push({ id: `page:${below.key}`, name: below.viaLink?.text ?? below.outline.h1 ?? '' });
  return labels;
}

/**
 * A page the navigation does not list belongs under the entry its path reaches it from, unless the
 * entries of another part sit deeper in its URL's folders: an API page a guide page links to
 * (`/api/testing/interfaces/Options.html`, reached from `/cookbook/testing.html`) goes with the
 * API's entries (`/api/testing/`). Returns each page so placed, with that entry.
 */
function placeUnderFolderEntries(paths: Map<MapNode, Label[]>, chosen: readonly MapNode[], home: MapNode, navigation: Navigation, map: SiteMap): Map<MapNode, MapNode> {
  // Each folder, with the first entry (in the navigation's order) at or below it; a folder whose
  // entries belong to different parts (hashed folders, `/d6/`) tells no page where it belongs.
  const entryIn = new Map<string, MapNode>();
  const partsIn = new Map<string, Set<string>>();
  for (const [key, { labels }] of [...navigation].sort((a, b) => a[1].order - b[1].order)) {
    const entry = map.byKey.get(key);
    if (!entry || entry === home) continue;
    for (const folder of foldersOf(entry)) {
      if (!entryIn.has(folder)) entryIn.set(folder, entry);
      partsIn.set(folder, (partsIn.get(folder) ?? new Set()).add(labels[0]));
    }
  }
  for (const [folder, parts] of partsIn) if (parts.size > 1) entryIn.delete(folder);
  const placed = new Map<MapNode, MapNode>();
  for (const node of chosen) {
    if (node === home || navigation.has(node.key)) continue;
    let reached: MapNode | null = node.via;
    while (reached && reached !== home && !navigation.has(reached.key)) reached = reached.via;
    const reachedShares = reached && reached !== home ? sharedFolders(reached, node) : 0;
    const folders = foldersOf(node);
    const deepest = folders.findIndex((folder) => entryIn.has(folder));
    if (deepest < 0 || folders.length - deepest <= reachedShares) continue;
    const entry = entryIn.get(folders[deepest])!;
    paths.set(node, [...navigationPath(entry, home, navigation), { id: `page:${node.key}`, name: node.viaLink?.text ?? node.outline.h1 ?? '' }]);
    placed.set(node, entry);
  }
  return placed;
}

/** A page's folders, deepest first: `/api/a/b.html` → `/api/a/`, `/api/`; a folder's own page is in it. */
function foldersOf(node: MapNode): string[] {
  const path = node.key.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '');
  const segments = path.split('/').slice(1, -1);
  return segments.map((_, index) => `/${segments.slice(0, segments.length - index).join('/')}/`);
}

/** Pages in the navigation's order; a page reached from an entry right after it, in the map's order. */
function navigationOrder(home: MapNode, navigation: Navigation): (node: MapNode) => number {
  const step = 1_000_000;
  return (node) => {
    if (node === home) return -1;
    let entry: MapNode | null = node;
    while (entry && entry !== home && !navigation.has(entry.key)) entry = entry.via;
    const at = entry && entry !== home ? navigation.get(entry.key)!.order : navigation.size;
    return at * step + (entry === node ? 0 : 1 + Math.min(node.order, step - 2));
  };
}

/**
 * Section names come from the headings above the home page's entries when those form at least two
 * groups: with the home page above them, three sections.
 */
function usesGroups(home: MapNode, chosen: readonly MapNode[]): boolean {
  const groups = new Set<string>();
  for (const node of chosen) {
    const group = homeGroup(home, topEntry(home, node));
    if (group) groups.add(group.toLowerCase());
  }
  return groups.size >= MIN_SECTIONS - 1;
}

/** The caption a home page's entry stands under; the page's own heading, over all its lists, groups nothing. */
function homeGroup(home: MapNode, entry: PageLink | null): string | null {
  return entry?.group && entry.group !== home.outline.h1 ? entry.group : null;
}

/** The home page's entry a page's path starts from, climbed to the top of the home page's list. */
function topEntry(home: MapNode, node: MapNode): PageLink | null {
  const first = firstStep(home, node);
  if (!first?.viaLink) return null;
  let link = first.viaLink;
  while (link.parent >= 0) link = home.outline.links[link.parent];
  return link;
}

function firstStep(home: MapNode, node: MapNode): MapNode | null {
  let step: MapNode | null = node;
  while (step && step.via !== home) step = step.via;
  return step;
}

/**
 * The labels from the home page down to a page: [group], the home entries, then each link followed.
 * A home entry that is a mention in running text ("see the <a>reference documentation</a>") is
 * named by its page's title: the words of a sentence are no name for a part of the site.
 */
function labelPath(node: MapNode, home: MapNode, grouped: boolean, titleOf: (node: MapNode) => string | undefined): Label[] {
  const first = firstStep(home, node);
  if (!first || node === home) return [];
  const labels: Label[] = [];
  const homeLinks = home.outline.links;
  const entries: number[] = [];
  for (let index = first.viaLinkIndex; index >= 0; index = homeLinks[index].parent) entries.unshift(index);
  const top = homeLinks[entries[0]];
  const group = grouped ? homeGroup(home, top) : null;
  if (group) labels.push({ id: `group:${group.toLowerCase()}`, name: group });
  for (const index of entries) {
    const link = homeLinks[index];
    const mentioned = !isEntry(link) && index === first.viaLinkIndex;
    labels.push({ id: `home:${index}`, name: (mentioned && titleOf(first)) || link.text });
  }
  const chain: MapNode[] = [];
  for (let step: MapNode | null = node; step && step !== first; step = step.via) chain.unshift(step);
  for (const step of chain) labels.push({ id: `page:${step.key}`, name: step.viaLink?.text ?? step.outline.h1 ?? '' });
  return labels;
}

/**
 * A page the site reaches only through a mention in another folder's running text (Git's
 * technical/bundle-uri.html, named on git-config's page) belongs with the pages of its own folder
 * that the site's contents place (technical/api-index.html, under "Further documentation"): it
 * takes the path of the one nearest the home page. Returns each page so placed, with that page.
 */
function placeWithFolder(paths: Map<MapNode, Label[]>, chosen: readonly MapNode[]): Map<MapNode, MapNode> {
  const mentioned = (node: MapNode) => node.via !== null && node.viaLink?.block === 'content' && folderOf(node.via) !== folderOf(node);
  const placed = new Map<string, MapNode>();
  for (const node of chosen) {
    if (mentioned(node) || node.via === null) continue;
    const nearest = placed.get(folderOf(node));
    if (!nearest || node.level < nearest.level || (node.level === nearest.level && node.order < nearest.order)) placed.set(folderOf(node), node);
  }
  const placedBeside = new Map<MapNode, MapNode>();
  for (const node of chosen) {
    const mate = mentioned(node) ? placed.get(folderOf(node)) : undefined;
    // The folder's own contents page, mentioned in running text, leads to the pages it places.
    if (!mate || descendsFrom(mate, node)) continue;
    paths.set(node, paths.get(mate)!);
    placedBeside.set(node, mate);
  }
  return placedBeside;
}

function descendsFrom(node: MapNode, ancestor: MapNode): boolean {
  for (let step = node.via; step; step = step.via) if (step === ancestor) return true;
  return false;
}

const folderOf = (node: MapNode) => node.key.slice(0, node.key.lastIndexOf('/') + 1);
