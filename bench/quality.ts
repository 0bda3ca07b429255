// The llms.txt quality benchmark: the real service generates (simple, maxUrls 200, embedded PGlite)
// for the seven built sites of ../shared/corpora/sites (served from their folders), six documentation
// sites from Debian's packages and six more (five generators) from Debian's packages (both served by
// nginx on 127.0.0.1), three times each, and each file is scored on what a reader checks (CHECKS
// below). Scores are printed per site and per group (share of checks passed). The Starlight site's
// own llms.txt (written by its build) is scored with the same checks beside ours.
// Each site's first file, its origin written as GOLDEN_ORIGIN, must be byte for byte its golden
// file (golden/corpus/, golden/debian/): a difference is printed as a diff and fails the run.
// `npm run bench -- quality --update` rewrites the golden files instead.
// The corpus sites are skipped with a note where ../shared is absent.
// BENCH_SERVICE_DIR=<checkout> scores another checkout's service. The files are saved under artifacts/quality/.
// A subset: `--site=<name>` (repeatable: a corpus folder or a Debian package) and `--group=<corpus|debian|new>`;
// with `--update`, only the subset's golden files are rewritten.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractPage } from '../src/llms-txt/extract.ts';
import { parseLlmsTxt, type LlmsTxtDocument } from '../src/llms-txt/testing/llms-txt-parser.ts';
import { corpusSites, CORPUS_DIR, GOLDEN_OPTIONS, goldenDifference, goldenPath, UPDATE_GOLDEN_FLAG, withGoldenOrigin, writeGolden } from '../src/testing/golden.ts';
import { serveFolder } from '../src/testing/static-folder.ts';
import { generateThrough, startBenchService } from './generate.ts';
import { ensurePackages, startNginx } from './static-site.ts';

type Group = 'corpus' | 'debian' | 'new';
const GROUP_NAMES: Record<Group, string> = {
  corpus: 'corpus (../shared/corpora/sites)',
  debian: "Debian: the bench's first six",
  new: 'Debian: more generators',
};

interface BenchSite {
  group: Group;
  /** the golden file's name: the corpus folder or the Debian package */
  name: string;
  title: string;
  /** words the summary must contain one of */
  siteWords: string[];
  /** the site's own top-level parts, as its navigation names them */
  parts: string[];
  /** URL paths (from the served root) of the pages a reader needs first, from the site's navigation */
  keyPages: string[];
  /** URL paths of pages that belong in Optional or nowhere: indexes, old versions, translations, legal pages */
  secondary: string[];
  start: string;
  serve(work: string): Promise<{ origin: string; close(): unknown }>;
  /** the site's own llms.txt, written by its build */
  peerFile?: string;
}

/** One Debian-packaged site of `debian-sites.json`: keys as in the corpus manifest, `root` the folder nginx serves. */
interface DebianSite {
  group: 'debian' | 'new';
  title: string;
  generator: string;
  root: string;
  start: string;
  siteWords: string[];
  parts: string[];
  keyPages: string[];
  secondary: string[];
}

/** What the summary of each corpus site must name (the manifest names projects in prose). */
const CORPUS_SITE_WORDS: Record<string, string[]> = {
  'docusaurus-zigguide': ['Zig'],
  'vitepress-pinia': ['Pinia'],
  'mkdocs-pymarkdown': ['Markdown'],
  'hugo-book': ['Hugo', 'book'],
  'mdbook-guide': ['mdBook'],
  'starlight-syncpack': ['Syncpack'],
  'jekyll-choosealicense': ['license'],
};
const PEER_FILE = '_peer-llms.txt';
const RUNS = 3;

const SECONDARY_URL = /\/(?:(?:genindex|bookindex|py-modindex|modindex|search|legalnotice|copyright|license|changes)(?:-[^/]*)?|release-\d[^/]*|whatsnew(?:\/)?[^/]*)\.html$/i;
const BOILERPLATE = /please donate|available languages|all rights reserved|^(?:this page was )?last (?:updated|modified)/i;
/** A summary that credits an author, states a licence or copies a call-out box instead of saying what the site is. */
const NOT_A_SUMMARY =
  /^(?:(?:written |posted |maintained )?by\s|authors?:|(?:note|warning|tip|important|caution|danger|info|attention|deprecated|hint)\b\s*[:!]|this (?:page|site|documentation|version) is (?:no longer|not|unmaintained|outdated|for an? (?:old|older|previous))|you are (?:reading|viewing) )|\b(?:copyright|©|\(c\) \d|licen[cs]ed under|all rights reserved|creative commons|permission is hereby granted)\b/i;
const PAGE_TYPE = /^(?:text\/html|application\/xhtml\+xml|text\/markdown|text\/plain)\b/;
/** Where each generated file is saved, to be read as a user would. */
const OUT_DIR = 'artifacts/quality';

export interface QualityScore {
  site: string;
  group: Group;
  pages: number;
  checks: Record<string, { value: string; pass: boolean }>;
  /** the same checks on the site's own llms.txt, when its build wrote one */
  peer?: QualityScore['checks'];
}

export async function runQualityBench(args: readonly string[] = []): Promise<QualityScore[]> {
  const update = args.includes(UPDATE_GOLDEN_FLAG);
  const sites = selectedSites(benchSites(), args);
  ensurePackages(['nginx-light', ...new Set(sites.flatMap((site) => (site.group === 'corpus' ? [] : [site.name])))]);
  const work = mkdtempSync(join(tmpdir(), 'quality-bench-'));
  const service = await startBenchService(work);
  const scores: QualityScore[] = [];
  const differences: string[] = [];
  try {
    for (const site of sites) {
      const served = await site.serve(work);
      try {
        const { origin } = served;
        const runs: string[] = [];
        let pages = 0;
        for (let run = 0; run < RUNS; run++) {
          const generated = await generateThrough(service.base, `${origin}${site.start}`, GOLDEN_OPTIONS);
          runs.push(generated.llmsTxt);
          pages = generated.pages;
        }
        mkdirSync(OUT_DIR, { recursive: true });
        writeFileSync(join(OUT_DIR, `${site.name}.txt`), runs[0]);
        const golden = goldenPath(site.group === 'corpus' ? 'corpus' : 'debian', site.name);
        const placeheld = withGoldenOrigin(runs[0], origin);
        if (update) writeGolden(golden, placeheld);
        else {
          const difference = goldenDifference(golden, placeheld);
          if (difference) differences.push(difference);
        }
        const checks = await score(site, origin, runs[0], runs);
        const peer = site.peerFile ? await score(site, origin, peerWithOrigin(site.peerFile, origin), null) : undefined;
        scores.push({ site: `${site.title} (${site.name})`, group: site.group, pages, checks, peer });
      } finally {
        await served.close();
      }
    }
  } finally {
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
  printScores(scores);
  if (update) console.log(`\ngolden files rewritten for ${sites.length} sites`);
  else if (differences.length > 0) {
    console.log(`\n${differences.length} golden file(s) differ (an intended change? npm run bench -- quality ${UPDATE_GOLDEN_FLAG}):\n`);
    for (const difference of differences) console.log(difference);
    process.exitCode = 1;
  }
  return scores;
}

/** The sites `--site=<name>` and `--group=<group>` name (all when neither is given). */
function selectedSites(sites: BenchSite[], args: readonly string[]): BenchSite[] {
  const valuesOf = (flag: string) => args.filter((arg) => arg.startsWith(`${flag}=`)).map((arg) => arg.slice(flag.length + 1));
  const names = valuesOf('--site');
  const groups = valuesOf('--group');
  const unknown = [...names.filter((name) => !sites.some((site) => site.name === name)), ...groups.filter((group) => !(group in GROUP_NAMES))];
  if (unknown.length > 0) throw new Error(`unknown site or group: ${unknown.join(', ')} (sites: ${sites.map((site) => site.name).join(', ')})`);
  if (names.length === 0 && groups.length === 0) return sites;
  return sites.filter((site) => names.includes(site.name) || groups.includes(site.group));
}

function benchSites(): BenchSite[] {
  const corpus = corpusSites();
  if (!corpus) console.log(`note: ${CORPUS_DIR} is absent, the corpus sites are skipped`);
  const debian = JSON.parse(readFileSync(join(import.meta.dirname, 'debian-sites.json'), 'utf8')) as Record<string, DebianSite>;
  return [
    ...(corpus ?? []).map((site): BenchSite => {
      const folder = join(CORPUS_DIR, site.name);
      return {
        group: 'corpus',
        name: site.name,
        title: site.project,
        siteWords: CORPUS_SITE_WORDS[site.name] ?? [site.project.split(/\s/)[0]],
        parts: site.parts,
        keyPages: site.keyPages,
        secondary: site.secondary,
        start: site.start,
        serve: () => serveFolder(folder),
        peerFile: existsSync(join(folder, PEER_FILE)) ? join(folder, PEER_FILE) : undefined,
      };
    }),
    ...Object.entries(debian).map(([name, site]): BenchSite => ({ ...site, name, serve: (work) => nginxOn(work, site.root) })),
  ];
}

async function nginxOn(work: string, root: string): Promise<{ origin: string; close(): void }> {
  const nginx = await startNginx(work, root);
  return { origin: `http://127.0.0.1:${nginx.port}`, close: nginx.stop };
}

/** The site's own llms.txt with its published origin (the one most of its links name) replaced by the served one. */
function peerWithOrigin(file: string, origin: string): string {
  const text = readFileSync(file, 'utf8');
  const origins = new Map<string, number>();
  for (const [url] of text.matchAll(/https?:\/\/[^\s)/]+/g)) origins.set(url, (origins.get(url) ?? 0) + 1);
  const published = [...origins].sort((a, b) => b[1] - a[1])[0]?.[0];
  return published ? text.replaceAll(published, origin) : text;
}

/** A URL path as a key: no fragment, no query, no `index.html`, no trailing slash. */
function pathKey(path: string): string {
  return path.replace(/[#?].*$/, '').replace(/\/index\.html$/, '/').replace(/\/+$/, '') || '/';
}

/** Scores one file; `runs` are the files of the runs compared with each other (null for a file not generated here). */
async function score(site: BenchSite, origin: string, llmsTxt: string, runs: string[] | null): Promise<QualityScore['checks']> {
  const checks: QualityScore['checks'] = {};
  const check = (name: string, value: string, pass: boolean) => (checks[name] = { value, pass });
  if (runs) {
    const identical = runs.every((run) => run === runs[0]);
    check(`${RUNS} runs byte-identical`, identical ? 'yes' : 'no', identical);
  }
  let doc: LlmsTxtDocument;
  try {
    doc = parseLlmsTxt(llmsTxt);
    check('valid structure', 'yes', true);
  } catch (error) {
    check('valid structure', String(error).slice(0, 60), false);
    // The other checks read what the file does list: its sections' link lines.
    try {
      doc = parseLlmsTxt(sectionsLinksOnly(llmsTxt));
    } catch {
      return checks;
    }
  }
  const summary = doc.summary ?? '';
  const namesSite = site.siteWords.some((word) => summary.toLowerCase().includes(word.toLowerCase()));
  check('summary names the site', summary ? `${namesSite ? 'yes' : 'no'}: "${summary.slice(0, 50)}…"` : 'missing', Boolean(summary) && namesSite && !BOILERPLATE.test(summary));
  check('summary not a byline, licence or call-out', NOT_A_SUMMARY.test(summary) ? `"${summary.slice(0, 50)}…"` : 'yes', !NOT_A_SUMMARY.test(summary));

  const links = doc.sections.flatMap((section) => section.links.map((link) => ({ ...link, section: section.name })));
  const onSite = (url: string) => url.startsWith(`${origin}/`) || url === origin;
  const pathOf = (url: string) => pathKey(onSite(url) ? new URL(url).pathname : url);
  const duplicates = links.length - new Set(links.map((link) => pathOf(link.url))).size;
  check('duplicate pages', String(duplicates), duplicates === 0);

  const primary = doc.sections.filter((section) => section.name !== 'Optional');
  const primaryLinks = primary.flatMap((section) => section.links);
  const largest = Math.max(0, ...primary.map((section) => section.links.length)) / Math.max(1, primaryLinks.length);
  check('sections (3-25)', String(primary.length), primary.length >= 3 && primary.length <= 25);
  check('largest section ≤ 40%', `${Math.round(largest * 100)}%`, largest <= 0.4);

  const names = new Set(primary.map((section) => section.name.toLowerCase()));
  const matched = site.parts.filter((part) => names.has(part.toLowerCase())).length;
  check("sections match the site's parts (≥ 80%)", `${matched}/${site.parts.length}`, matched / site.parts.length >= 0.8);

  const listed = new Set(links.map((link) => pathOf(link.url)));
  const chosen = site.keyPages.filter((path) => listed.has(pathKey(path))).length;
  check('key pages chosen (≥ 80%)', `${chosen}/${site.keyPages.length}`, chosen / site.keyPages.length >= 0.8);

  const secondary = new Set(site.secondary.map(pathKey));
  const misplaced = primaryLinks.filter((link) => secondary.has(pathOf(link.url)) || (onSite(link.url) && SECONDARY_URL.test(new URL(link.url).pathname))).length;
  check('secondary pages outside the main sections', String(misplaced), misplaced === 0);

  const described = links.filter((link) => link.notes && link.notes.trim()).length / Math.max(1, links.length);
  check('links described (≥ 95%)', `${(described * 100).toFixed(1)}%`, described >= 0.95);
  const colon = links.filter((link) => link.notes?.trim().endsWith(':')).length;
  check('descriptions ending in ":"', String(colon), colon === 0);
  const boilerplate = links.filter((link) => BOILERPLATE.test(link.notes ?? '')).length;
  check('boilerplate descriptions', String(boilerplate), boilerplate === 0);
  const counts = new Map<string, number>();
  for (const link of links) if (link.notes) counts.set(link.notes, (counts.get(link.notes) ?? 0) + 1);
  const repeated = links.filter((link) => link.notes && counts.get(link.notes)! > 1).length / Math.max(1, links.length);
  check('repeated descriptions (≤ 2%)', `${(repeated * 100).toFixed(1)}%`, repeated <= 0.02);

  const affix = commonestTitleAffix(links.map((link) => link.title));
  check('no title prefix/suffix on > 50%', affix ? `"${affix.affix}" on ${affix.share}%` : 'none', !affix || affix.share <= 50);
  const template = commonestSkeleton([...links.map((link) => ({ text: link.notes ?? '', title: link.title })), { text: summary, title: doc.title }]);
  const templateShare = (100 * template.count) / Math.max(1, links.length);
  check('no description skeleton on > 10%', template.count > 1 ? `"${template.skeleton.slice(0, 40)}" ×${template.count} (${templateShare.toFixed(0)}%)` : 'none', template.count <= 1 || templateShare <= 10);

  const fetched = await fetchLinks(links.map((link) => link.url).filter(onSite));
  const broken = fetched.filter((page) => !page.ok);
  check('listed links answer 200 with a page', broken.length ? `${broken.length} not: ${broken[0].url.slice(origin.length)} (${broken[0].status})` : 'all', broken.length === 0);
  const sameContent = duplicateContent(fetched);
  check('no two listed pages with the same content', sameContent.length ? `${sameContent.length}: ${sameContent[0]}` : 'none', sameContent.length === 0);

  const languages = new Set(links.filter((link) => onSite(link.url)).map((link) => /^\/([a-z]{2})(?:[-_][a-z]{2,4})?\//.exec(new URL(link.url).pathname)?.[1] ?? '-'));
  check('one language', String(languages.size), languages.size <= 1);
  return checks;
}

/** The file with only its sections' link lines after its first section heading (prose, code blocks and sections without links set aside). */
function sectionsLinksOnly(llmsTxt: string): string {
  const lines = llmsTxt.split('\n');
  const firstSection = lines.findIndex((line) => line.startsWith('## '));
  if (firstSection < 0) return llmsTxt;
  const sections: string[][] = [];
  let fenced = false;
  for (const line of lines.slice(firstSection)) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (fenced) continue;
    else if (line.startsWith('## ')) sections.push([line]);
    else if (line.startsWith('- [')) sections.at(-1)!.push(line);
  }
  const listing = sections.filter((section) => section.length > 1).map((section) => [section[0], '', ...section.slice(1), '']);
  return [...lines.slice(0, firstSection), ...listing.flat()].join('\n');
}

/** The first or last word most titles share (of titles with two words or more), with its share of all titles in %. */
function commonestTitleAffix(titles: string[]): { affix: string; share: number } | null {
  const counts = new Map<string, number>();
  for (const title of titles) {
    const words = title.trim().split(/\s+/);
    if (words.length < 2) continue;
    for (const affix of new Set([`${words[0]} …`, `… ${words.at(-1)}`])) counts.set(affix, (counts.get(affix) ?? 0) + 1);
  }
  const [affix, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
  return affix ? { affix, share: Math.round((100 * count!) / titles.length) } : null;
}

/**
 * A description's skeleton: what is left once names (its link's title words, capitalised words
 * after the first, identifiers, quoted code) and numbers are removed; a skeleton many pages share
 * is a template filled in with names ("The X module provides Y.").
 */
function skeleton(text: string, title: string): string {
  let rest = text.replace(/`[^`]*`/g, ' ');
  for (const word of title.split(/[^\p{L}\p{N}_]+/u).filter((w) => w.length > 1)) rest = rest.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(word)}(?![\\p{L}\\p{N}_])`, 'giu'), ' ');
  return rest
    .replace(/[\p{L}_][\p{L}\p{N}_]*(?:[.:/()<>-]+[\p{L}\p{N}_]+)+/gu, ' ')
    .replace(/\p{N}+(?:[.,]\p{N}+)*/gu, ' ')
    .replace(/(?<=\S\s+)\p{Lu}[\p{L}\p{N}_-]*/gu, ' ')
    .toLowerCase()
    .replace(/[^\p{L}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function commonestSkeleton(texts: { text: string; title: string }[]): { skeleton: string; count: number } {
  const counts = new Map<string, number>();
  for (const { text, title } of texts) {
    const shape = skeleton(text, title);
    if (shape) counts.set(shape, (counts.get(shape) ?? 0) + 1);
  }
  const [shape, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  return { skeleton: shape, count };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

interface FetchedLink {
  url: string;
  status: number;
  ok: boolean;
  /** the page's main content as markdown, whitespace collapsed */
  content: string;
}

/** Each URL fetched once without following redirects (a listed link should be the page itself), a few at a time. */
async function fetchLinks(urls: string[]): Promise<FetchedLink[]> {
  const unique = [...new Set(urls.map((url) => url.replace(/#.*$/, '')))];
  const fetched: FetchedLink[] = [];
  for (let i = 0; i < unique.length; i += 8) {
    fetched.push(
      ...(await Promise.all(
        unique.slice(i, i + 8).map(async (url) => {
          const response = await fetchOnce(url);
          if (!response) return { url, status: 0, ok: false, content: '' };
          const body = await response.text();
          const ok = response.status === 200 && PAGE_TYPE.test(response.headers.get('content-type') ?? '') && body.trim().length > 0;
          const html = /html/.test(response.headers.get('content-type') ?? '');
          const content = ok ? (html ? (extractPage(body, url).markdown ?? '') : body).replace(/\s+/g, ' ').trim() : '';
          return { url, status: response.status, ok, content };
        }),
      )),
    );
  }
  return fetched;
}

/** The answer, asked again once when the connection drops (nginx closes idle keep-alive connections); null when it drops twice. */
async function fetchOnce(url: string): Promise<Response | null> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const response = await fetch(url, { redirect: 'manual' });
      await response.clone().arrayBuffer();
      return response;
    } catch {
      // dropped: asked again, then counted as not answering
    }
  }
  return null;
}

/** Pages whose main content another listed page already has, each as "page = earlier page". */
function duplicateContent(pages: FetchedLink[]): string[] {
  const first = new Map<string, string>();
  const duplicates: string[] = [];
  for (const page of pages) {
    if (!page.content) continue;
    const earlier = first.get(page.content);
    if (earlier) duplicates.push(`${new URL(page.url).pathname} = ${new URL(earlier).pathname}`);
    else first.set(page.content, page.url);
  }
  return duplicates;
}

function printScores(scores: QualityScore[]): void {
  const passed = (checks: QualityScore['checks']) => Object.values(checks).filter((c) => c.pass).length;
  for (const entry of scores) {
    const total = Object.keys(entry.checks).length;
    console.log(`\n${entry.site} [${entry.group}]: ${entry.pages} pages listed, ${passed(entry.checks)}/${total} checks pass`);
    if (entry.peer) console.log(`  ${'check'.padEnd(48)} ${'ours'.padEnd(40)} its build's own llms.txt (${passed(entry.peer)}/${Object.keys(entry.peer).length})`);
    for (const [name, c] of Object.entries(entry.checks)) {
      const peer = entry.peer?.[name];
      const beside = entry.peer ? `   ${peer ? `${peer.pass ? 'pass' : 'FAIL'} ${peer.value}` : '-'}` : '';
      console.log(`  ${c.pass ? 'pass' : 'FAIL'}  ${name.padEnd(42)} ${entry.peer ? c.value.slice(0, 40).padEnd(40) : c.value}${beside}`);
    }
  }
  console.log('\nShare of checks passed per group (target ≥ 95%):');
  for (const group of Object.keys(GROUP_NAMES) as Group[]) {
    const members = scores.filter((entry) => entry.group === group);
    if (members.length === 0) continue;
    const pass = members.reduce((sum, entry) => sum + passed(entry.checks), 0);
    const total = members.reduce((sum, entry) => sum + Object.keys(entry.checks).length, 0);
    console.log(`  ${GROUP_NAMES[group].padEnd(36)} ${members.length} sites  ${pass}/${total}  ${((100 * pass) / total).toFixed(1)}%`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  runQualityBench(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
