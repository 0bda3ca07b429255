/**
 * `llmstxt generate <url>`: the generator core on this machine, without the service, a database
 * or an account: discover and fetch the pages, describe them, write llms.txt (and llms-full.txt).
 */
import { access, constants, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BrowserPool, chromiumAvailable, DiscoveryError, invalidPathPattern, normalizeUrl, type PathFilters, type RenderMode } from '../crawl/index.ts';
import { renderSettings } from '../config.ts';
import { jobMessages } from '../errors.ts';
import { collectPages } from '../generation/page-collection.ts';
import { createPagePool, pageReader } from '../generation/page-pool.ts';
import { fileSize, generateLlmsTxt, groupIntoSections, loadTokenCounter, type GenerationMethod, type GenerationResult } from '../llms-txt/index.ts';
import { CliError, EXIT } from './errors.ts';
import type { Progress } from './progress.ts';

export interface LocalOptions extends PathFilters {
  maxUrls: number;
  method: GenerationMethod;
  full: boolean;
  /** llms-full.txt's budget in tokens, or null for no budget */
  maxTokens: number | null;
  out: string;
  render: RenderMode;
  /** link each page to the site's own markdown copy where it has one (nothing is hosted locally) */
  linkMarkdown: boolean;
  /** Also write EXPLAIN_FILE: the rules behind each listed page (see PageTrace). */
  explain?: boolean;
}

export const EXPLAIN_FILE = 'llms-explain.json';

export interface WrittenFile {
  path: string;
  bytes: number;
  tokens: number;
}

export async function generateLocally(rawUrl: string, options: LocalOptions, progress: Progress, signal: AbortSignal, env: NodeJS.ProcessEnv = process.env) {
  const url = parseSiteUrl(rawUrl);
  assertPatterns(options);
  const renderer = options.render === 'never' ? undefined : new BrowserPool(chromiumFor(env));
  const pages = createPagePool();
  const collected = collectPages(url, {
    maxUrls: options.maxUrls,
    signal,
    paths: options,
    // A local run reaches what the person running it names, their intranet and localhost included.
    crawl: { allowPrivate: true },
    onDiscovered: (found) => progress.update('Finding pages', found, null),
    onFetched: (fetched, total) => progress.update('Fetching pages', fetched, total),
    read: pageReader(pages, { extractsContent: options.method === 'enhanced' || options.full || options.linkMarkdown }),
    render: { mode: options.render, pool: renderer },
    siteMarkdown: options.full || options.linkMarkdown,
  });
  try {
    const result = await generateLlmsTxt(collected.pages, {
      siteUrl: url,
      method: options.method,
      maxPages: options.maxUrls,
      fullText: options.full,
      maxFullTextTokens: options.maxTokens ?? undefined,
      extractor: pages.extract,
      extractorConcurrency: pages.concurrency,
      onPagesRead: () => pages.retireWhenIdle(),
      markdownLink: options.linkMarkdown ? (pageUrl) => pageUrl : undefined,
      signal,
      onProgress: (p) => p.phase !== 'extract' && progress.update(p.phase === 'describe' ? 'Describing pages' : 'Writing files', p.done, p.total),
    });
    // As a job through the API fails: a one-line llms.txt of an application shell helps no one.
    if (collected.rendering.looksScriptRendered) throw new CliError(EXIT.generationFailed, jobMessages.scriptRendered(url));
    if (result.pages.length === 0) throw new CliError(EXIT.generationFailed, `No pages could be read from ${url}`);
    const files = await writeFiles(options.out, [
      ['llms.txt', result.llmsTxt],
      ['llms-full.txt', result.llmsFullTxt],
      [EXPLAIN_FILE, options.explain ? explanation(result) : null],
    ]);
    return { url, pages: result.pages.length, files };
  } catch (error) {
    if (error instanceof DiscoveryError && error.code !== 'ABORTED') throw new CliError(EXIT.generationFailed, error.message);
    throw error;
  } finally {
    progress.done();
    await pages.close();
    await renderer?.close();
  }
}

/** The site's header and, for each listed page in llms.txt's order, what it shows and the rules that chose it. */
function explanation({ site, pages }: GenerationResult): string {
  const listed = groupIntoSections(pages).flatMap((section) => section.pages.map(({ url, title, description, trace }) => ({ url, title, description, section: section.name, trace })));
  return `${JSON.stringify({ site: { name: site.name, summary: site.summary }, pages: listed }, null, 2)}\n`;
}

/** Chromium as the service would use it, refused before any page is fetched when it is not installed. */
function chromiumFor(env: NodeJS.ProcessEnv) {
  const settings = renderSettings(env);
  if (!chromiumAvailable(settings.chromiumPath)) {
    throw new CliError(EXIT.usage, `--render needs Chromium, not found at ${settings.chromiumPath}: install it (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return settings;
}

function parseSiteUrl(raw: string): string {
  const url = /^https?:\/\//i.test(raw.trim()) ? normalizeUrl(raw.trim()) : null;
  if (!url) throw new CliError(EXIT.usage, `not an http(s) URL: ${raw}`);
  return url;
}

function assertPatterns(filters: PathFilters): void {
  const reason = invalidPathPattern('includePaths', filters.includePaths) ?? invalidPathPattern('excludePaths', filters.excludePaths);
  if (reason) throw new CliError(EXIT.usage, reason.replace('includePaths', '--include').replace('excludePaths', '--exclude'));
}

/** The folder --out names exists and takes files, checked before any page is fetched or credit spent. */
export async function prepareOutputFolder(directory: string): Promise<void> {
  try {
    await mkdir(directory, { recursive: true });
    await access(directory, constants.W_OK);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'EEXIST' || (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'is not a folder' : 'cannot be written';
    throw new CliError(EXIT.usage, `--out ${directory} ${reason}`);
  }
}

async function writeFiles(directory: string, files: Array<[string, string | null]>): Promise<WrittenFile[]> {
  await mkdir(directory, { recursive: true });
  const countTokens = await loadTokenCounter();
  const written: WrittenFile[] = [];
  for (const [name, content] of files) {
    if (content === null) continue;
    const path = join(directory, name);
    await writeFile(path, content);
    written.push({ path, ...(await fileSize(content, countTokens)) });
  }
  return written;
}
