// The generation thread's warm-up, run once by the thread a service starts with (see
// GenerationThreads): the made-up manual generated as a simple job would, its llms.txt sized.
import { fileSize, generateLlmsTxt, LineCounts, rememberingCounter, type PageInput, type TokenCounter } from '../llms-txt/index.ts';
import { manualContents, manualPage } from './made-up-manual.ts';

/** Chapters of the made-up manual: enough for the first job's stages to run at the speed of later jobs' (measured on PostgreSQL's manual). */
const WARM_UP_CHAPTERS = 120;

/** V8 compiles a function's fastest code once it has run often enough: one round left the second job slower than the third. */
const WARM_UP_ROUNDS = 3;

const SITE = 'http://manual.invalid/';

/**
 * A service's first simple job of the PostgreSQL manual spent 0.64 s generating after its crawl,
 * a second job 0.42 s: the first compiled the stages' code and met the tokenizer's words for the
 * first time (docs/decisions/isolation.md). The counts of the manual's lines are not kept (a
 * LineCounts of their own): they would take room from a real site's.
 */
export async function warmUpGeneration(countTokens: TokenCounter): Promise<void> {
  const pages: PageInput[] = [{ url: SITE, html: manualContents(WARM_UP_CHAPTERS) }];
  for (let n = 0; n < WARM_UP_CHAPTERS; n++) pages.push({ url: `${SITE}page-${n}.html`, html: manualPage(n) });
  for (let round = 1; round <= WARM_UP_ROUNDS; round++) {
    const { llmsTxt } = await generateLlmsTxt(pages, { siteUrl: SITE, method: 'simple', maxPages: pages.length });
    await fileSize(llmsTxt, rememberingCounter(countTokens, new LineCounts()));
  }
}
