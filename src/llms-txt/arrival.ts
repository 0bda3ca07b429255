// Stages 1-2, read and canonical pages: each page's facts and content hash as it arrives (read
// by the crawler, in a worker thread, or here), one candidate per page: a second URL of the same
// page (by key, by body or by text) is an alias of the first. The first chosen pages' DOM pass starts
// while pages still arrive.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { PageFacts } from './page-facts.ts';
import { readHtml } from './reading.ts';
import { hasSecondaryTitle } from './secondary.ts';
import { pageKey } from './site-map.ts';
import { hashOf } from './text.ts';
import type { ContentFacts } from './page-text.ts';
import { repetitionKeysOf, type RepetitionKeys } from './stages/repetition.ts';
import type { TextKeys } from './text-keys.ts';
import type { PageInput, PageReading } from './types.ts';

export interface Candidate {
  page: PageInput;
  outline: PageFacts;
  /** Other URLs with the same body. */
  aliases: string[];
  /** Read from its facts alone, without the DOM pass (see needsHtml). */
  fromOutline: boolean;
  /** SHA-1 (base64) of the page's HTML. */
  contentHash: string;
  /** What the page adds to the site's counts of repeated text (see findRepetition). */
  repetition: RepetitionKeys;
  read?: Promise<DomReading>;
}

/** What the DOM pass added to a chosen page's facts. */
export interface DomReading {
  /** Null when no markdown is wanted (`simple` without llms-full.txt). */
  markdown: string | null;
  /** The main content's paragraph and headings, for a page whose facts say nothing of it. */
  content: ContentFacts | null;
}

/** The DOM pass as arrivals start it (see dom-pass.ts). */
interface DomPassStart {
  needsHtml(facts: PageFacts): boolean;
  start(candidate: Candidate): void;
}

export interface ArrivalOptions {
  siteUrl: string;
  maxPages?: number;
  signal?: AbortSignal;
  onArrived?: (count: number) => void;
  /** Pages are read on this thread: it lets other work through between two. */
  yieldEachPage: boolean;
  /** The job's keys of its texts, made as each page arrives (see TextKeys). */
  keys: TextKeys;
}

/** The pages as they arrive, one candidate each, in arrival order. */
export async function readArrivals(input: Iterable<PageInput> | AsyncIterable<PageInput>, options: ArrivalOptions, extractor: DomPassStart): Promise<Candidate[]> {
  const { signal } = options;
  const maxPages = options.maxPages ?? Infinity;
  const arrived: Candidate[] = [];
  const seenKeys = new Set<string>();
  const byBody = new Map<string, Candidate>();
  const byText = new Map<number, Candidate>();
  const homeKey = pageKey(options.siteUrl);
  for await (const page of input) {
    signal?.throwIfAborted();
    const url = page.url.replace(/#.*$/, '');
    const key = pageKey(url);
    if (seenKeys.has(key)) continue;
    seenKeys.add(key);
    // Read as it was fetched (by the crawler, or in a worker thread), or here.
    const { html, reading } = page.reading ? { html: page.html, reading: await page.reading } : readHere(page, url);
    const ownMarkdown = (await page.ownMarkdown) ?? null;
    const body = reading.contentHash;
    const text = textKey(reading.outline);
    const twin = byBody.get(body) ?? (text === null ? undefined : byText.get(text));
    if (twin) {
      // The same page under two URLs is listed once, under the home page's URL when it is one of them.
      if (key === homeKey) [twin.outline.url, url].forEach((alias) => alias !== url && twin.aliases.push(alias));
      else twin.aliases.push(url);
      if (key === homeKey) twin.page.url = twin.outline.url = url;
      continue;
    }
    const outline = { ...reading.outline, url };
    const fromOutline = !extractor.needsHtml(outline);
    // A page read from its facts alone needs its HTML no longer.
    const candidate: Candidate = {
      page: { ...page, url, html: fromOutline ? '' : html, reading: undefined, ownMarkdown },
      outline,
      aliases: [],
      fromOutline,
      contentHash: body,
      repetition: repetitionKeysOf(outline, options.keys),
    };
    options.keys.prime(outline);
    byBody.set(body, candidate);
    if (text !== null) byText.set(text, candidate);
    arrived.push(candidate);
    // Pages arrive roughly in navigation order: the first ones are most likely chosen. Secondary
    // pages are chosen last, if at all, and an index is the largest page of a manual to read
    // (PostgreSQL's: 450 kB, a tenth of a second on the event loop): read once chosen.
    if (arrived.length <= maxPages && !fromOutline && !hasSecondaryTitle(outline)) extractor.start(candidate);
    options.onArrived?.(arrived.length);
    if (options.yieldEachPage) await yieldToEventLoop();
  }
  return arrived;
}

/** The page's HTML, decoded now if it came undecoded (see PageInput). */
export function htmlOf(page: PageInput): string {
  return typeof page.html === 'string' ? page.html : page.html();
}

function readHere(page: PageInput, url: string): { html: string; reading: PageReading } {
  const html = htmlOf(page);
  return { html, reading: readHtml(html, url) };
}

/** A page's text, at least this long, is its own: two pages that share it are one page. */
const MIN_OWN_TEXT_CHARS = 400;

/**
 * A hash of what a page says (its title, headings, first paragraphs, and how much text and code
 * it holds, its navigation and chrome apart): mdBook serves its first chapter as `index.html` and
 * `title-page.html`, alike but for the sidebar's mark on the open entry. Null for a page with too
 * little text of its own to tell it from another.
 */
function textKey(outline: PageFacts): number | null {
  if (outline.textChars < MIN_OWN_TEXT_CHARS) return null;
  return hashOf(JSON.stringify([outline.documentTitle, outline.h1, outline.headings, outline.paragraphs, outline.textChars, outline.codeChars]));
}
