// Describers write each page's title and one-sentence description, and the site's summary, for
// the `enhanced` method: a model through the Vercel AI SDK (llm-describer.ts) or, without a
// configured provider, the built-in extractive describer below.
import { keySentences } from './key-sentences.ts';
import type { SiteSummary } from './types.ts';

export { createLlmDescriber, type LlmDescriberOptions } from './llm-describer.ts';

/** A page as the describer sees it, with the simple method's title and description as fallback. */
export interface PageToDescribe {
  url: string;
  title: string;
  description: string;
  markdown: string;
  /** The section the site's own navigation puts the page in, when it has one. */
  section?: string | null;
}

/** The site as the describer sees it, with the simple method's name and summary as fallback. */
export interface SiteToDescribe {
  url: string;
  name: string;
  summary: string;
}

export interface PageDescription {
  url: string;
  title: string;
  description: string;
  section?: string | null;
  /** `ai`: written by the model; `extractive`: key sentences; `fallback`: the simple description. */
  source: 'ai' | 'extractive' | 'fallback';
}

export interface DescribeUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Model calls made, retries included. */
  calls: number;
  /** Batches whose pages fell back to their simple description. */
  failedBatches: number;
}

export interface DescribeResult {
  site: SiteSummary & { source: 'ai' | 'extractive' | 'fallback' };
  /** One per input page, in the input order. */
  pages: PageDescription[];
  usage: DescribeUsage;
  /** Why batches fell back (for logs); empty when all went well. */
  errors: string[];
}

export interface DescribeOptions {
  /** Aborting rejects the call (a canceled job); it is not a fallback. */
  signal?: AbortSignal;
  onProgress?: (describedPages: number, totalPages: number) => void;
}

export interface Describer {
  readonly kind: 'extractive' | 'llm';
  describe(site: SiteToDescribe, pages: readonly PageToDescribe[], options?: DescribeOptions): Promise<DescribeResult>;
}

export const NO_USAGE: Readonly<DescribeUsage> = { inputTokens: 0, outputTokens: 0, totalTokens: 0, calls: 0, failedBatches: 0 };

/** The pages' own one-liners, else key sentences of their content; no network, no model. */
export function createExtractiveDescriber(options: { maxDescriptionChars?: number } = {}): Describer {
  const maxChars = options.maxDescriptionChars ?? 200;
  return {
    kind: 'extractive',
    async describe(site, pages, { signal, onProgress } = {}) {
      const described: PageDescription[] = [];
      for (const page of pages) {
        signal?.throwIfAborted();
        // The page's own one-liner (purpose line, meta description, lead paragraph) beats any
        // sentence picked from its body: key sentences only fill in where it has none.
        const sentence = page.description ? '' : keySentences(page.markdown, page.title, maxChars);
        described.push({
          url: page.url,
          title: page.title,
          description: page.description || sentence,
          source: page.description || sentence ? 'extractive' : 'fallback',
        });
        if (described.length % 50 === 0) onProgress?.(described.length, pages.length);
      }
      onProgress?.(pages.length, pages.length);
      const home = findHomePage(site.url, pages);
      const summary = site.summary || (home ? keySentences(home.markdown, home.title, 300) : '');
      return {
        site: { name: site.name, summary, source: 'extractive' },
        pages: described,
        usage: { ...NO_USAGE },
        errors: [],
      };
    },
  };
}

/** The page at the site's URL, else the one with the shortest path. */
export function findHomePage<T extends { url: string }>(siteUrl: string, pages: readonly T[]): T | undefined {
  const pathLength = (url: string) => {
    try {
      return new URL(url).pathname.replace(/\/(?:index\.\w+)?$/, '').length;
    } catch {
      return Infinity;
    }
  };
  const normalizedSite = siteUrl.replace(/\/$/, '');
  return (
    pages.find((page) => page.url.replace(/\/$/, '') === normalizedSite) ??
    [...pages].sort((a, b) => pathLength(a.url) - pathLength(b.url))[0]
  );
}
