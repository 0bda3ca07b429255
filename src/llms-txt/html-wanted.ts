// Which pages the generator reads as HTML once it has their facts (its DOM pass, see dom-pass.ts).
// A generation thread is sent a page's bytes only then (see generation-thread.ts), so this module
// is light enough for the event loop to import.
import type { PageFacts } from './page-facts-model.ts';
import type { GenerationMethod } from './types.ts';

/** Whether a job reads its pages' markdown: for llms-full.txt, for the model describer, or for the copies llms.txt links to. */
export function wantsMarkdown(job: { method: GenerationMethod; fullText?: boolean; markdownLink?: unknown }): boolean {
  return job.method === 'enhanced' || Boolean(job.fullText) || Boolean(job.markdownLink);
}

/** Whether a page's facts say what it is: else its main content is read (see readContentFacts). */
export function factsDescribe(facts: PageFacts): boolean {
  return Boolean(facts.purposeLine || facts.firstParagraph);
}

/** Whether the DOM pass reads the page: for its markdown, or for what its facts do not say. */
export function needsHtml(facts: PageFacts, markdown: boolean): boolean {
  return markdown || !factsDescribe(facts);
}
