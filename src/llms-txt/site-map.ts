// The site's own map, read from its pages' links: how far each page is from the home page through
// navigation and contents links (a shortest-path tree, where a top-level contents entry costs 1,
// a nested one more, a link in running text 3), and how many pages link to it. Page choice and
// sections both come from this tree.
import { MinQueue } from './min-queue.ts';
import { isEntry, type PageLink, type PageFacts } from './page-facts.ts';
import { frameOf } from './templates.ts';
import { ALIKE_KEPT, ALIKE_MIN_PAGES, IN_LINK_WEIGHT, MEMBER_STEP, PRIORITY_WEIGHT, PROSE_LINK_STEP as PROSE_STEP, UNREACHED_LEVEL } from './tuning.ts';

export interface MapInput {
  outline: PageFacts;
  secondary: boolean;
  /** A listing of other pages' excerpts: listed with the secondary pages, though it leads to its pages as a primary page does. */
  listing?: boolean;
  /** The sitemap's priority (0-1), when it gave one. */
  priority?: number | null;
  /** Other URLs serving the same page: links to them lead here. */
  aliases?: readonly string[];
}

export interface MapNode {
  key: string;
  url: string;
  outline: PageFacts;
  secondary: boolean;
  listing: boolean;
  priority: number | null;
  /** Cost of the cheapest path from the home page (Infinity when no navigation link leads here). */
  level: number;
  /** Distinct other pages that link here (secondary pages and page chrome do not count). */
  inLinks: number;
  /** The page through which the cheapest path arrives, and the link it follows there. */
  via: MapNode | null;
  viaLink: PageLink | null;
  viaLinkIndex: number;
  children: MapNode[];
  /** Position in the site's reading order (a depth-first walk of the tree, links in page order). */
  order: number;
  /**
   * One step further from the top: listed beside the page it is a member of ("Shelf.Bracket" beside
   * "Shelf"), or one of a family of alike pages past the first few that stand for it.
   */
  member: boolean;
}

export interface SiteMap {
  home: MapNode | null;
  nodes: MapNode[];
  byKey: Map<string, MapNode>;
}

/**
 * `/docs/index.html` and `/docs/` are one page, as are `/app/Default.aspx` and `/app/` (IIS's
 * default document). A `default.html` is a page of its own: Django's manual has
 * `topics/auth/default.html` beside `topics/auth/index.html`, and whichever arrived first stood for both.
 */
export function pageKey(url: string): string {
  return url.replace(/#.*$/, '').replace(/\/(?:index\.(?:html?|php|aspx?)|default\.aspx?)(?=$|\?)/i, '/');
}

/**
 * The page a link leads to: by any of the page's URLs, or without the slash the server redirects
 * it to (Docusaurus links `/guide/x` for the page served at `/guide/x/`).
 */
export function linkedNode(byKey: ReadonlyMap<string, MapNode>, url: string): MapNode | undefined {
  let known = linked.get(byKey);
  // A page added since (buildSiteMap adds a page's aliases) may be the one a URL leads to.
  if (known?.size !== byKey.size) linked.set(byKey, (known = { size: byKey.size, nodes: new Map() }));
  if (known.nodes.has(url)) return known.nodes.get(url);
  const key = pageKey(url);
  const node = byKey.get(key) ?? (key.endsWith('/') || key.includes('?') ? undefined : byKey.get(`${key}/`));
  known.nodes.set(url, node);
  return node;
}

/**
 * The page each URL leads to, by site map: the stages ask it of every link of every page several
 * times over (in-links, paths, the navigation's entries and captions), sidebars repeat the same
 * few hundred URLs on every page, and a page's key is two regular expressions away.
 */
const linked = new WeakMap<ReadonlyMap<string, MapNode>, { size: number; nodes: Map<string, MapNode | undefined> }>();

/** `frameOfText`: frameOf, or the job's (see TextKeys). */
export function buildSiteMap(homeUrl: string, inputs: readonly MapInput[], frameOfText: (text: string) => string = frameOf): SiteMap {
  const byKey = new Map<string, MapNode>();
  // Arrival order varies between crawls; the map must not.
  const sorted = [...inputs].sort((a, b) => (a.outline.url < b.outline.url ? -1 : a.outline.url > b.outline.url ? 1 : 0));
  for (const input of sorted) {
    const key = pageKey(input.outline.url);
    if (byKey.has(key)) continue;
    byKey.set(key, {
      key,
      url: input.outline.url,
      outline: input.outline,
      secondary: input.secondary,
      listing: input.listing ?? false,
      priority: input.priority ?? null,
      level: Infinity,
      inLinks: 0,
      via: null,
      viaLink: null,
      viaLinkIndex: -1,
      children: [],
      order: Infinity,
      member: false,
    });
  }
  const nodes = [...byKey.values()];
  for (const input of sorted) {
    const node = byKey.get(pageKey(input.outline.url))!;
    for (const alias of input.aliases ?? []) if (!byKey.has(pageKey(alias))) byKey.set(pageKey(alias), node);
  }
  const home = byKey.get(pageKey(homeUrl)) ?? null;
  countInLinks(nodes, byKey);
  if (home) {
    shortestPaths(home, byKey);
    markUnreachedSecondary(nodes, byKey);
  }
  for (const node of nodes) if (node.via) node.via.children.push(node);
  markMembers(nodes);
  markAlike(nodes, frameOfText);
  let order = 0;
  const walk = (node: MapNode) => {
    node.order = order++;
    node.children.sort((a, b) => a.viaLinkIndex - b.viaLinkIndex);
    node.children.forEach(walk);
  };
  if (home) walk(home);
  for (const node of nodes) if (node.order === Infinity) node.order = order++;
  return { home, nodes, byKey };
}

/**
 * A page no page links to outside its chrome (only the site's header, footer or sitemap lead to
 * it: "About", a page hidden from the menu) is secondary, where the map reaches most of the other
 * pages; where it does not, its links are ones the parse cannot see (a script's menu) and nothing
 * is judged. A page a secondary contents page lists as an entry (a sitemap page) is still the
 * site's; a mention in a secondary page's text ("see our about page") is not.
 */
function markUnreachedSecondary(nodes: readonly MapNode[], byKey: Map<string, MapNode>) {
  const primary = nodes.filter((node) => !node.secondary);
  const unreached = primary.filter((node) => !Number.isFinite(node.level));
  if (unreached.length * 2 >= primary.length) return;
  const linked = new Set<MapNode>();
  for (const node of nodes) {
    for (const link of node.outline.links) {
      const target = linkedNode(byKey, link.url);
      if (target && target !== node && (!node.secondary || isEntry(link))) linked.add(target);
    }
  }
  for (const node of unreached) if (!linked.has(node)) node.secondary = true;
}

function countInLinks(nodes: readonly MapNode[], byKey: Map<string, MapNode>) {
  for (const node of nodes) {
    if (node.secondary) continue;
    const targets = new Set<MapNode>();
    for (const link of node.outline.links) {
      const target = linkedNode(byKey, link.url);
      if (target && target !== node) targets.add(target);
    }
    for (const target of targets) target.inLinks++;
  }
}

/** Dijkstra from the home page; ties go to the path found first, so the tree is deterministic. */
function shortestPaths(home: MapNode, byKey: Map<string, MapNode>) {
  const listedUnder = parentsListedByHome(home);
  home.level = 0;
  const queue = new MinQueue<MapNode>();
  queue.push(home, 0);
  const done = new Set<MapNode>();
  for (let node = queue.pop(); node; node = queue.pop()) {
    if (done.has(node)) continue;
    done.add(node);
    if (node.secondary && node !== home) continue;
    node.outline.links.forEach((link, index) => {
      const target = linkedNode(byKey, link.url);
      if (!target || done.has(target) || target === node) return;
      const level = node.level + (isEntry(link) ? 1 + Math.min(link.depth, 3) : PROSE_STEP);
      // On a tie the deeper page is the more specific parent: a chapter's sections hang under the
      // chapter, not under the part page that also lists them; between pages as deep, the one in
      // the target's folder (a module under the modules' index, not under a release note).
      // The home page's own contents settle it where they nest the page under another: Sphinx's
      // "Extensions" under "Using Sphinx", not under "Getting Started", which also lists it.
      const listedParent = listedUnder.get(target.key);
      const moreSpecific =
        level === target.level &&
        target.via !== null &&
        target.via.key !== listedParent &&
        (node.key === listedParent || node.level > target.via.level || (node.level === target.via.level && sharedFolders(node, target) > sharedFolders(target.via, target)));
      if (level < target.level || moreSpecific) {
        if (level < target.level) queue.push(target, level);
        target.level = level;
        target.via = node;
        target.viaLink = link;
        target.viaLinkIndex = index;
      }
    });
  }
}

/** For each page the home page's contents nest under another entry, that entry's page. */
function parentsListedByHome(home: MapNode): Map<string, string> {
  const links = home.outline.links;
  const parents = new Map<string, string>();
  for (const link of links) {
    if (!isEntry(link) || link.parent < 0) continue;
    const key = pageKey(link.url);
    const parent = pageKey(links[link.parent].url);
    if (key !== parent && !parents.has(key)) parents.set(key, parent);
  }
  return parents;
}

/** How many folders of their paths two pages share: `/en/mod/index.html` and `/en/mod/core.html` two. */
export function sharedFolders(a: MapNode, b: MapNode): number {
  const folders = (node: MapNode) => node.key.replace(/^[a-z]+:\/\/[^/]+/i, '').split('/').slice(1, -1);
  const [x, y] = [folders(a), folders(b)];
  let shared = 0;
  while (shared < x.length && shared < y.length && x[shared] === y[shared]) shared++;
  return shared;
}

/** Between a name and its member's: "Shelf.Bracket", "Shelf::Bracket", "Shelf#bracket". */
const MEMBER_JOINERS = ['.', '::', '#'];

/**
 * A page listed beside the page it is a member of, its name that page's and more ("Shelf.Bracket"
 * beside "Shelf": an API's nested class, a module's submodule): a contents list that lists both at
 * one level still puts the member under its owner, so it comes after its owner's siblings.
 */
function markMembers(nodes: readonly MapNode[]) {
  for (const parent of nodes) {
    if (parent.children.length < 2) continue;
    const names = new Set(parent.children.map((child) => child.viaLink!.text));
    for (const child of parent.children) {
      const name = child.viaLink!.text;
      child.member = MEMBER_JOINERS.some((joiner) => {
        for (let at = name.indexOf(joiner); at > 0; at = name.indexOf(joiner, at + 1)) if (names.has(name.slice(0, at))) return true;
        return false;
      });
    }
  }
}

/**
 * A page's children that open alike, only names changing ("A functional interface like BiConsumer
 * that declares a Throwable.", forty times): a family, which its first few stand for; the others
 * rank as members do, after their parent's other children.
 */
function markAlike(nodes: readonly MapNode[], frameOfText: (text: string) => string) {
  for (const parent of nodes) {
    if (parent.children.length < ALIKE_MIN_PAGES) continue;
    const families = new Map<string, MapNode[]>();
    for (const child of parent.children) {
      const frame = frameOfText(child.outline.firstParagraph);
      if (frame !== '') families.set(frame, [...(families.get(frame) ?? []), child]);
    }
    for (const family of families.values()) {
      if (family.length < ALIKE_MIN_PAGES) continue;
      family.sort((a, b) => b.inLinks - a.inLinks || a.viaLinkIndex - b.viaLinkIndex);
      for (const child of family.slice(ALIKE_KEPT)) child.member = true;
    }
  }
}

/** Lower is more important: close to the home page in the site's navigation, linked from many pages. */
export function importance(node: MapNode): number {
  const level = (Number.isFinite(node.level) ? node.level : UNREACHED_LEVEL) + (node.member ? MEMBER_STEP : 0);
  const priority = node.priority === null ? 0 : PRIORITY_WEIGHT * (node.priority - 0.5);
  return level - IN_LINK_WEIGHT * Math.log2(1 + node.inLinks) - priority;
}

/** A page listed under Optional: a secondary page, or a listing of excerpts. */
export function isOptional(node: MapNode): boolean {
  return node.secondary || node.listing;
}

/** The `count` pages to list: the home page, then the most important, secondary pages only when room is left. */
export function choosePages(map: SiteMap, count: number): MapNode[] {
  const rank = (a: MapNode, b: MapNode) => importance(a) - importance(b) || a.order - b.order;
  const others = map.nodes.filter((node) => node !== map.home);
  const primary = others.filter((node) => !isOptional(node)).sort(rank);
  const secondary = others.filter(isOptional).sort(rank);
  return [...(map.home ? [map.home] : []), ...primary, ...secondary].slice(0, Math.max(0, count));
}
