/**
 * What a generation costs (DESIGN.md): a credit per 10 pages asked for, twice that for `enhanced`,
 * and with rendering (`render` auto or always) a credit more per 10 pages rendered.
 */
import type { RenderMode } from '../crawl/index.ts';
import type { GenerationMethod } from '../llms-txt/index.ts';

export function generationCost(pages: number, method: GenerationMethod): number {
  const base = Math.ceil(pages / 10);
  return method === 'enhanced' ? base * 2 : base;
}

/** Rendering's part: reserved as if every page were rendered, charged for the pages that were. */
export function renderingCost(pagesRendered: number): number {
  return Math.ceil(pagesRendered / 10);
}

/** The credits a job reserves at its start. */
export function reservedCredits(options: { maxUrls: number; generationMethod: GenerationMethod; render: RenderMode }): number {
  return generationCost(options.maxUrls, options.generationMethod) + (options.render === 'never' ? 0 : renderingCost(options.maxUrls));
}

/**
 * Credits that come back when a job lists fewer pages than it reserved for, or rendered fewer. A
 * page rendered but not listed (the job reads more pages than it lists) is not charged.
 */
export function unusedCredits(reserved: number, used: { pagesListed: number; pagesRendered: number; method: GenerationMethod }): number {
  return Math.max(0, reserved - generationCost(used.pagesListed, used.method) - renderingCost(Math.min(used.pagesRendered, used.pagesListed)));
}
