/**
 * What a generation costs (DESIGN.md): a credit per 10 pages asked for, twice that for `enhanced`,
 * and with rendering (`render` auto or always) a credit more per 10 pages rendered.
 */
import type { RenderMode } from '../crawl/index.ts';
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

/** Rendering's part: reserved as if every page were rendered, charged for the pages that were. */
export function renderingCost(pagesRendered: number): number {
  return Math.ceil(pagesRendered / PAGES_PER_CREDIT);
}

/** The credits a job reserves at its start. */
export function reservedCredits(options: { maxUrls: number; generationMethod: GenerationMethod; render: RenderMode }): number {
  return generationCost(options.maxUrls, options.generationMethod) + (options.render === 'never' ? 0 : renderingCost(options.maxUrls));
}

/** Credits that come back when a job lists fewer pages than it reserved for, or rendered fewer of them. */
export function unusedCredits(reserved: number, used: { pagesListed: number; pagesRendered: number; method: GenerationMethod }): number {
  return Math.max(0, reserved - generationCost(used.pagesListed, used.method) - renderingCost(used.pagesRendered));
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
  return { options, credits: reservedCredits(options), withoutAi };
}
