/**
 * The markdown a site publishes for its pages: the copy a page announces
 * (`<link rel="alternate" type="text/markdown" href>`), or the llmstxt.org proposal's URL (the
 * page's URL plus `.md`). Probing costs requests, so it is bounded: a page's announced copy is
 * always fetched; unannounced ones are probed on the first few pages only, and on the rest only if
 * one of those had a copy (docs/decisions/markdown-alternates.md).
 */
import type { Fetcher } from './fetcher.ts';
import type { KnownRobots } from './known-robots.ts';

export interface SiteMarkdown {
  /** where the copy was found */
  url: string;
  /** its text, front matter removed */
  markdown: string;
}

/** Pages probed before deciding whether the site has `.md` copies. */
export const PROBE_SAMPLE = 3;
const MARKDOWN_TYPES = /^\s*text\/(?:markdown|x-markdown|plain)\s*(?:;|$)/i;
/** An HTML page served as text/plain (a catch-all route) is not markdown. */
const LOOKS_LIKE_HTML = /^\s*<(?:!doctype|html|head|body)\b/i;
/** YAML (`---`) or TOML (`+++`) front matter at the very start. */
const FRONT_MATTER = /^\uFEFF?(---|\+\+\+)[ \t]*\r?\n[\s\S]*?\r?\n\1[ \t]*(?:\r?\n|$)/;

/** The proposal's URLs for a page's copy, most likely first: `/a/` → `/a/index.html.md`; `/a.html` → `/a.html.md`, `/a.md`; `/a` → `/a.md`. */
export function markdownCandidates(pageUrl: string): string[] {
  const url = new URL(pageUrl);
  if (url.search !== '') return [];
  const at = (path: string) => url.origin + path;
  const path = url.pathname;
  if (path.endsWith('/')) return [at(`${path}index.html.md`), at(`${path}index.md`)];
  if (/\.html?$/i.test(path)) return [at(`${path}.md`), at(path.replace(/\.html?$/i, '.md'))];
  if (/\.md$/i.test(path)) return [];
  return [at(`${path}.md`)];
}

export function stripFrontMatter(markdown: string): string {
  return markdown.replace(FRONT_MATTER, '').trim();
}

export interface MarkdownCopiesOptions {
  fetcher: Fetcher;
  robots: KnownRobots;
  maxBytes: number;
  signal?: AbortSignal;
}

export class MarkdownCopies {
  private readonly options: MarkdownCopiesOptions;
  private sampled = 0;
  private sampleEnded = 0;
  /** Whether unannounced pages are probed: undecided while the sample is under way. */
  private probe: boolean | null = null;
  private decided: Promise<void>;
  private decide!: () => void;
  /** Copies found (announced or probed), for the job's record. */
  found = 0;

  constructor(options: MarkdownCopiesOptions) {
    this.options = options;
    this.decided = new Promise((resolve) => (this.decide = resolve));
  }

  /** The page's own markdown, or null. Never throws: a copy that cannot be had leaves the HTML's. */
  async find(pageUrl: string, announced: string | null): Promise<SiteMarkdown | null> {
    try {
      const copy = announced ? await this.fetchCopy(announced, pageUrl) : await this.probeFor(pageUrl);
      if (copy) this.found++;
      return copy;
    } catch {
      return null;
    }
  }

  /** The decision, once taken: null while the sample is under way. */
  get probing(): boolean | null {
    return this.probe;
  }

  private async probeFor(pageUrl: string): Promise<SiteMarkdown | null> {
    if (this.probe === null && this.sampled >= PROBE_SAMPLE) await this.decided;
    if (this.probe === false) return null;
    const inSample = this.probe === null;
    if (inSample) this.sampled++;
    let copy: SiteMarkdown | null = null;
    try {
      for (const candidate of markdownCandidates(pageUrl)) {
        copy = await this.fetchCopy(candidate, pageUrl);
        if (copy) break;
      }
    } finally {
      if (inSample) this.endSample(copy !== null);
    }
    return copy;
  }

  private endSample(found: boolean): void {
    this.sampleEnded++;
    if (this.probe !== null) return;
    if (found) this.probe = true;
    else if (this.sampleEnded >= PROBE_SAMPLE) this.probe = false;
    if (this.probe !== null) this.decide();
  }

  /** A copy on the page's own origin that robots.txt allows, answered as markdown (not an HTML page). */
  private async fetchCopy(copyUrl: string, pageUrl: string): Promise<SiteMarkdown | null> {
    const url = new URL(copyUrl);
    const { fetcher, robots, maxBytes, signal } = this.options;
    if (url.origin !== new URL(pageUrl).origin || !(await robots.allows(url, signal))) return null;
    const response = await fetcher.fetch(url.href, {
      signal,
      accept: 'text/markdown, text/x-markdown;q=0.9, text/plain;q=0.5',
      maxBytes,
      wantBody: (type) => type !== null && MARKDOWN_TYPES.test(type),
    });
    if (response.status !== 200 || response.bodySkipped || new URL(response.url).origin !== url.origin) return null;
    const text = response.text();
    if (LOOKS_LIKE_HTML.test(text)) return null;
    const markdown = stripFrontMatter(text);
    return markdown === '' ? null : { url: response.url, markdown };
  }
}
