/** What a generation costs (DESIGN.md): a credit per 10 pages asked for, twice that for `enhanced`. */
import type { GenerationMethod } from '../llms-txt/index.ts';

export function generationCost(pages: number, method: GenerationMethod): number {
  const base = Math.ceil(pages / 10);
  return method === 'enhanced' ? base * 2 : base;
}

/** Credits that come back when a job lists fewer pages than it reserved for. */
export function unusedCredits(reserved: number, pagesGenerated: number, method: GenerationMethod): number {
  return Math.max(0, reserved - generationCost(pagesGenerated, method));
}
