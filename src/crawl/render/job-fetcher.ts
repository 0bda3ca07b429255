/**
 * A job's fetchers: the direct one (guarded, polite), and the one its pages come through, which
 * renders them when the job asks for it, both with the robots.txt rules the job has read.
 */
import type { CrawlOptions } from '../discover.ts';
import { createFetcher, type Fetcher } from '../fetcher.ts';
import { KnownRobots } from '../known-robots.ts';
import { resolveLimits } from '../limits.ts';
import type { BrowserPool } from './browser-pool.ts';
import type { RenderMode } from './modes.ts';
import { createRenderingFetcher, type RenderingFetcher } from './rendering-fetcher.ts';

export interface JobFetchers {
  direct: Fetcher;
  pages: RenderingFetcher;
  robots: KnownRobots;
  maxPageBytes: number;
}

export function createJobFetchers(crawl: CrawlOptions, render: { mode: RenderMode; pool?: BrowserPool; maxRendered?: number }): JobFetchers {
  const maxPageBytes = resolveLimits(crawl.limits).maxPageBytes;
  const direct = createFetcher({ ...crawl });
  const robots = new KnownRobots(direct);
  const pages = createRenderingFetcher(direct, { ...render, maxPageBytes, robots });
  return { direct, pages, robots, maxPageBytes };
}
