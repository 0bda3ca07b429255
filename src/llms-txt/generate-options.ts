// What generateLlmsTxt is asked (GenerateOptions) and answers (GenerationResult); the stages take
// the parts they need.
import type { Describer, DescribeUsage } from './describer.ts';
import type { ExtractOptions, Extractor } from './extract.ts';
import type { MarkdownLines } from './repeated-lines.ts';
import type { DescribedPage, GenerationMethod, SiteSummary } from './types.ts';

export interface GenerateOptions {
  /** The site's normalized URL (its home page). */
  siteUrl: string;
  method: GenerationMethod;
  /** For `enhanced`: the model describer; the built-in extractive describer when omitted. */
  describer?: Describer;
  includeModificationDate?: boolean;
  /** Also render llms-full.txt. */
  fullText?: boolean;
  /** llms-full.txt's budget in tokens (see renderLlmsFullTxt). */
  maxFullTextTokens?: number | null;
  signal?: AbortSignal;
  onProgress?: (progress: GenerationProgress) => void;
  extract?: ExtractOptions;
  /** Extracts a page elsewhere (a worker thread, see the generation's page-pool.ts); inline when omitted. */
  extractor?: Extractor;
  /** Pages handed to `extractor` at once. Default 4. */
  extractorConcurrency?: number;
  /** Called once every chosen page is extracted: `extractor` is not called again. */
  onPagesRead?: () => void;
  /** Pages to list; more may be handed over, and the most important are kept. Default: all. */
  maxPages?: number;
  /** llms.txt links each page to a markdown copy: the site's own (PageInput.ownMarkdown), else the one this names. */
  markdownLink?: (pageUrl: string) => string;
  /** The pages' markdown lines, keyed by the caller as each extraction comes back (see MarkdownLines). */
  markdownLines?: MarkdownLines;
}

export interface GenerationProgress {
  phase: 'extract' | 'describe' | 'render';
  done: number;
  /** Unknown (null) while pages are still arriving. */
  total: number | null;
}

export interface GenerationStats {
  pages: number;
  /** Pages whose title and description the model wrote. */
  aiWritten: number;
  /** Pages the model was asked about whose answer was unusable (they keep the simple description). */
  fellBack: number;
  usage: DescribeUsage;
  /** Pages whose extraction failed (they are listed with a title from their URL). */
  extractionFailures: number;
  /** Why model batches fell back, for the job's log. */
  errors: string[];
  /** Pages llms-full.txt left out to keep within maxFullTextTokens; null without a budget or full text. */
  fullTextPagesLeftOut: number | null;
  /** Wall time of reading the pages, arrival included (pages stream in while the site is crawled). */
  extractMs: number;
}

export interface GenerationResult {
  site: SiteSummary;
  pages: DescribedPage[];
  llmsTxt: string;
  llmsFullTxt: string | null;
  stats: GenerationStats;
}
