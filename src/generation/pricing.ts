/** What a generation costs (DESIGN.md): a credit per 10 pages asked for, twice that for `enhanced`. */
import type { GenerationMethod } from '../llms-txt/index.ts';
import type { GenerationOptions } from './options.ts';

export const PAGES_PER_CREDIT = 10;

/** How many times `simple`'s price a method costs. */
const METHOD_FACTOR: Record<GenerationMethod, number> = { simple: 1, enhanced: 2 };

export function generationCost(pages: number, method: GenerationMethod): number {
  return Math.ceil(pages / PAGES_PER_CREDIT) * METHOD_FACTOR[method];
}

/** Pages one credit pays for with this method. */
export function pagesPerCredit(method: GenerationMethod): number {
  return PAGES_PER_CREDIT / METHOD_FACTOR[method];
}

/** Credits that come back when a job lists fewer pages than it reserved for. */
export function unusedCredits(reserved: number, pagesGenerated: number, method: GenerationMethod): number {
  return Math.max(0, reserved - generationCost(pagesGenerated, method));
}

export interface GenerationPlan {
  /** The options that run: `enhanced` becomes `simple` when no AI provider is configured. */
  options: GenerationOptions;
  /** What the start reserves (before a cache hit, which costs nothing). */
  credits: number;
  /** `enhanced` was asked for and runs as `simple`, at its price, for want of an AI provider. */
  withoutAi: boolean;
}

/**
 * The one place a start's price and method are decided: the start and the estimate both ask here,
 * so whatever joins the price (rendering) joins both.
 */
export function planGeneration(asked: GenerationOptions, aiConfigured: boolean): GenerationPlan {
  const withoutAi = asked.generationMethod === 'enhanced' && !aiConfigured;
  const options: GenerationOptions = withoutAi ? { ...asked, generationMethod: 'simple' } : asked;
  return { options, credits: generationCost(options.maxUrls, options.generationMethod), withoutAi };
}
