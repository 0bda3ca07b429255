// Stage 10, render: llms.txt, and llms-full.txt within its token budget when it is asked for.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { renderLlmsFullTxt, renderLlmsTxt } from '../render.ts';
import type { MarkdownLines } from '../repeated-lines.ts';
import { loadTokenCounter } from '../tokens.ts';
import type { DescribedPage, SiteSummary } from '../types.ts';

export interface RenderInput {
  site: SiteSummary;
  pages: readonly DescribedPage[];
  includeModificationDate?: boolean;
  fullText?: boolean;
  maxFullTextTokens?: number | null;
  /** The home page's language, null when it does not say. */
  language: string | null;
  markdownLines?: MarkdownLines;
}

export interface RenderedFiles {
  llmsTxt: string;
  llmsFullTxt: string | null;
  /** Pages llms-full.txt left out to keep within maxFullTextTokens; null without a budget or full text. */
  fullTextPagesLeftOut: number | null;
}

export async function renderFiles({ site, pages, includeModificationDate, fullText, maxFullTextTokens, language, markdownLines }: RenderInput): Promise<RenderedFiles> {
  await yieldToEventLoop();
  const llmsTxt = renderLlmsTxt(site, pages, { includeModificationDate });
  const countTokens = fullText && maxFullTextTokens ? await loadTokenCounter() : undefined;
  let fullTextPagesLeftOut: number | null = null;
  const llmsFullTxt = fullText
    ? await renderLlmsFullTxt(site, pages, { language, markdownLines, maxTokens: maxFullTextTokens, countTokens, onLeftOut: (leftOut) => (fullTextPagesLeftOut = leftOut) })
    : null;
  return { llmsTxt, llmsFullTxt, fullTextPagesLeftOut };
}
