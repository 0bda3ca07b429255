// What a describer is given and answers: the model describer (llm-describer.ts) and the
// built-in extractive one (extractive-describer.ts) both write each page's title and
// one-sentence description, and the site's summary, for the `enhanced` method.
import type { SiteSummary } from './types.ts';

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
  /** The home page's language ("de"), null when it does not say: the words the describer matches are that language's. */
  language?: string | null;
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
