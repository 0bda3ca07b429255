/**
 * The llms.txt checker: the file's structure (structure.ts), each listed link's status, the site's
 * key pages the file lacks, and the listed pages that changed after the file, scored 0-100. Every
 * request goes through the crawler: robots.txt, the address guard, a pace per host. Everything is
 * bounded: the file's size, the links checked, the time. The API (`POST /lint`) and the CLI
 * (`llmstxt lint`) both call this module.
 */
import pLimit from 'p-limit';
import { Parser } from 'htmlparser2';
import {
  collectSitemapUrls,
  createFetcher,
  FetchError,
  normalizeUrl,
  resolveLimits,
  scopeOf,
  type CrawlOptions,
  type Fetcher,
  type Robots,
  type RobotsCache,
  type SitemapEntry,
} from '../crawl/index.ts';
import { reportFindings, score, type Finding, type ReportedFinding } from './findings.ts';
import { readStructure, sameUrlKey, type ListedLink } from './structure.ts';

export const LINT_BOUNDS = {
  /** links whose status is checked; the rest are reported as not checked */
  maxLinks: 200,
  /** the whole check, file, links and site */
  budgetMs: 30_000,
  /** a larger file is not read */
  maxFileBytes: 5 * 1024 * 1024,
  /** links checked at once (each host's own cap and pace still apply) */
  concurrency: 8,
  /** sitemap URLs and files read for key pages and changes */
  maxSitemapUrls: 5_000,
  maxSitemapFiles: 5,
  /** key pages compared with the file */
  maxKeyPages: 50,
};

export interface LintDeps {
  crawl: CrawlOptions;
  robots: RobotsCache;
}

export interface LintReport {
  /** the file checked: its URL, or null for a local file */
  fileUrl: string | null;
  /** the site its links point to (most of them), whose navigation and sitemap were compared */
  site: string | null;
  score: number;
  findings: ReportedFinding[];
  links: { listed: number; checked: number };
}

/** `url` is the site's llms.txt, another file served as text, or any page of the site (then `<origin>/llms.txt`). */
export async function lintUrl(deps: LintDeps, url: string): Promise<LintReport> {
  const signal = AbortSignal.timeout(LINT_BOUNDS.budgetMs);
  const hosts = new Hosts(deps, signal);
  try {
    const file = await readRemoteFile(hosts, url, signal);
    if ('unreadable' in file) return unreadable(file.fileUrl, file.unreadable);
    return await lintWith(hosts, file.text, file.fileUrl, file.lastModified, signal);
  } finally {
    await hosts.close();
  }
}

/** A file's text, as read from disk by the CLI (`lastModified`: its modification time). */
export async function lintText(deps: LintDeps, text: string, lastModified: Date | null): Promise<LintReport> {
  const signal = AbortSignal.timeout(LINT_BOUNDS.budgetMs);
  const hosts = new Hosts(deps, signal);
  try {
    return await lintWith(hosts, text, null, lastModified, signal);
  } finally {
    await hosts.close();
  }
}

async function lintWith(hosts: Hosts, text: string, fileUrl: string | null, lastModified: Date | null, signal: AbortSignal): Promise<LintReport> {
  const structure = readStructure(text, fileUrl ?? undefined);
  // The site the links describe (a file hosted elsewhere, as this service hosts them, describes the site it lists).
  const site = mainOrigin(structure.links);
  const [links, siteFindings] = await Promise.all([
    checkLinks(hosts, structure.links, signal),
    site ? checkSite(hosts, site, structure.links, lastModified, signal) : [],
  ]);
  return report(fileUrl, site, [...structure.findings, ...links.findings, ...siteFindings], structure.links.length, links.checked);
}

/** The report on a file that could not be read at all: score 0. */
export const unreadable = (fileUrl: string | null, message: string): LintReport => report(fileUrl, null, [{ code: 'file-unreadable', line: null, message }], 0, 0);

function report(fileUrl: string | null, site: string | null, findings: Finding[], listed: number, checked: number): LintReport {
  return { fileUrl, site, score: score(findings), findings: reportFindings(findings), links: { listed, checked } };
}

type RemoteFile = { fileUrl: string; text: string; lastModified: Date | null } | { fileUrl: string; unreadable: string };

const TEXT_TYPES = /^text\/(?:plain|markdown|x-markdown)\b/i;

async function readRemoteFile(hosts: Hosts, url: string, signal: AbortSignal): Promise<RemoteFile> {
  const given = await readTextAt(hosts, url, signal);
  if ('text' in given || /\.(?:txt|md)$/i.test(new URL(url).pathname)) return given;
  // A page of the site: its llms.txt is at the root.
  return readTextAt(hosts, `${new URL(url).origin}/llms.txt`, signal);
}

async function readTextAt(hosts: Hosts, fileUrl: string, signal: AbortSignal): Promise<RemoteFile> {
  try {
    const host = await hosts.get(fileUrl);
    if ('refused' in host) return { fileUrl, unreadable: host.refused };
    if (!host.robots.isAllowed(fileUrl)) return { fileUrl, unreadable: `The site's robots.txt does not allow reading ${fileUrl}` };
    const response = await host.fetcher.fetch(fileUrl, { signal, accept: 'text/plain, text/markdown;q=0.9, */*;q=0.1', maxBytes: LINT_BOUNDS.maxFileBytes });
    if (response.status !== 200) return { fileUrl, unreadable: `${fileUrl} answered HTTP ${response.status}` };
    const text = response.text();
    if (!TEXT_TYPES.test(response.contentType ?? 'text/plain') || /^\s*</.test(text)) {
      return { fileUrl, unreadable: `${fileUrl} is not an llms.txt: it answered ${response.contentType ?? 'no content type'}, not markdown text` };
    }
    const modified = response.headers['last-modified'];
    const lastModified = modified ? new Date(modified) : null;
    return { fileUrl: response.url, text, lastModified: lastModified && !Number.isNaN(lastModified.getTime()) ? lastModified : null };
  } catch (error) {
    if (error instanceof FetchError && error.code === 'TOO_LARGE') return { fileUrl, unreadable: `${fileUrl} is larger than ${LINT_BOUNDS.maxFileBytes / 1024 / 1024} MB: not read` };
    return { fileUrl, unreadable: `${fileUrl} could not be read: ${reason(error)}` };
  }
}

/** The origin most links point to. */
function mainOrigin(links: ListedLink[]): string | null {
  const counts = new Map<string, number>();
  for (const link of links) counts.set(new URL(link.url).origin, (counts.get(new URL(link.url).origin) ?? 0) + 1);
  let best: string | null = null;
  for (const [origin, count] of counts) if (best === null || count > counts.get(best)!) best = origin;
  return best;
}

async function checkLinks(hosts: Hosts, links: ListedLink[], signal: AbortSignal): Promise<{ findings: Finding[]; checked: number }> {
  const unique = [...new Map(links.map((link) => [link.url, link])).values()];
  const toCheck = unique.slice(0, LINT_BOUNDS.maxLinks);
  const findings: Finding[] = [];
  let checked = 0;
  const limit = pLimit(LINT_BOUNDS.concurrency);
  await Promise.all(
    toCheck.map((link) =>
      limit(async () => {
        if (signal.aborted) return;
        const finding = await checkLink(hosts, link, signal);
        if (signal.aborted && finding?.code === 'broken-link') return;
        checked++;
        if (finding) findings.push(finding);
      }),
    ),
  );
  const unchecked = unique.length - checked;
  if (unchecked > 0) {
    const why = unique.length > LINT_BOUNDS.maxLinks ? `at most ${LINT_BOUNDS.maxLinks} links are checked` : `the check's ${LINT_BOUNDS.budgetMs / 1000} s were up`;
    findings.push({ code: 'not-checked', line: null, message: `${unchecked} of ${unique.length} links were not checked: ${why}` });
  }
  return { findings: findings.sort((a, b) => a.line! - b.line!), checked };
}

async function checkLink(hosts: Hosts, link: ListedLink, signal: AbortSignal): Promise<Finding | null> {
  const host = await hosts.get(link.url);
  if ('refused' in host) return { code: host.addressRefused ? 'link-refused' : 'broken-link', line: link.line, message: `${link.url}: ${host.refused}` };
  if (!host.robots.isAllowed(link.url)) return { code: 'link-disallowed', line: link.line, message: `${link.url}: the site's robots.txt does not allow crawlers to read it` };
  try {
    const response = await host.fetcher.fetch(link.url, { signal, wantBody: () => false });
    return response.status >= 400 ? { code: 'broken-link', line: link.line, message: `${link.url} answered HTTP ${response.status}` } : null;
  } catch (error) {
    if (error instanceof FetchError && error.code === 'REFUSED_ADDRESS') return { code: 'link-refused', line: link.line, message: `${link.url}: ${reason(error)}` };
    return { code: 'broken-link', line: link.line, message: `${link.url} could not be fetched: ${reason(error)}` };
  }
}

/** Key pages (the home page's navigation, the sitemap's top-level pages) the file lacks; listed pages changed after it. */
async function checkSite(hosts: Hosts, origin: string, links: ListedLink[], lastModified: Date | null, signal: AbortSignal): Promise<Finding[]> {
  const host = await hosts.get(origin);
  if ('refused' in host) return [];
  const home = `${origin}/`;
  const [navigation, sitemap] = await Promise.all([
    navigationLinks(host.fetcher, home, signal),
    collectSitemapUrls({
      fetcher: host.fetcher,
      origin,
      scope: scopeOf(home),
      robotsSitemaps: host.robots.sitemaps,
      maxUrls: LINT_BOUNDS.maxSitemapUrls,
      isAllowed: (url) => host.robots.isAllowed(url),
      limits: { maxSitemapFiles: LINT_BOUNDS.maxSitemapFiles },
      signal,
    }).then((found) => found.urls, () => [] as SitemapEntry[]),
  ]);
  const listed = new Map(links.map((link) => [sameUrlKey(link.url), link]));
  const findings: Finding[] = [];
  const keyPages = new Map<string, string>();
  for (const url of navigation) keyPages.set(url, 'navigation');
  for (const { url } of sitemap) if (isTopLevel(url) && !keyPages.has(url)) keyPages.set(url, 'sitemap');
  for (const [url, where] of [...keyPages].slice(0, LINT_BOUNDS.maxKeyPages)) {
    if (url === home || listed.has(sameUrlKey(url)) || !host.robots.isAllowed(url)) continue;
    findings.push({ code: 'missing-key-page', line: null, message: `${url} is in the site's ${where} but not in the file` });
  }
  if (lastModified) {
    for (const entry of sitemap) {
      const link = listed.get(sameUrlKey(entry.url));
      const changed = entry.lastModified ? new Date(entry.lastModified) : null;
      if (link && changed && changed > lastModified) {
        findings.push({ code: 'changed-after-file', line: link.line, message: `${entry.url} changed on ${entry.lastModified} (sitemap), after the file (${lastModified.toISOString()})` });
      }
    }
  }
  return findings;
}

/** One path segment at most: /docs, /pricing/ (the root is the file's own subject). */
const isTopLevel = (url: string) => new URL(url).pathname.split('/').filter(Boolean).length <= 1;

const MAX_NAVIGATION_LINKS = 200;

/** Same-origin links inside the home page's <nav> and <header> elements. */
async function navigationLinks(fetcher: Fetcher, home: string, signal: AbortSignal): Promise<string[]> {
  try {
    const response = await fetcher.fetch(home, { signal });
    if (response.status !== 200 || !/html/i.test(response.contentType ?? '')) return [];
    const origin = new URL(response.url).origin;
    const found = new Set<string>();
    let depth = 0;
    const parser = new Parser({
      onopentag(name, attributes) {
        if (name === 'nav' || name === 'header') depth++;
        if (name !== 'a' || depth === 0 || !attributes.href || found.size >= MAX_NAVIGATION_LINKS) return;
        const url = normalizeUrl(attributes.href, response.url);
        if (url && new URL(url).origin === origin) found.add(url);
      },
      onclosetag(name) {
        if ((name === 'nav' || name === 'header') && depth > 0) depth--;
      },
    });
    parser.end(response.text());
    return [...found];
  } catch {
    return [];
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Host = { fetcher: Fetcher; robots: Robots } | { refused: string; addressRefused: boolean };

/** One fetcher per origin (its connections, its pace from Crawl-delay) and its robots.txt, for one check. */
class Hosts {
  private readonly deps: LintDeps;
  private readonly signal: AbortSignal;
  private readonly hosts = new Map<string, Promise<Host>>();
  private readonly fetchers: Fetcher[] = [];

  constructor(deps: LintDeps, signal: AbortSignal) {
    this.deps = deps;
    this.signal = signal;
  }

  get(url: string): Promise<Host> {
    const origin = new URL(url).origin;
    let host = this.hosts.get(origin);
    if (!host) {
      host = this.open(origin);
      this.hosts.set(origin, host);
    }
    return host;
  }

  private async open(origin: string): Promise<Host> {
    const fetcher = createFetcher(this.deps.crawl);
    this.fetchers.push(fetcher);
    try {
      const { robots } = await this.deps.robots.rulesFor(origin, fetcher, this.signal);
      fetcher.pace(Math.max(resolveLimits(this.deps.crawl.limits).delayMs, robots.crawlDelayMs));
      return { fetcher, robots };
    } catch (error) {
      return { refused: reason(error), addressRefused: error instanceof FetchError && error.code === 'REFUSED_ADDRESS' };
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.fetchers.map((fetcher) => fetcher.close()));
  }
}
