/**
 * robots.txt for the paths that fetch a site's pages outside a crawl (a scheduled check, a fresh
 * markdown export): one file per origin, remembered as long as RFC 9309 allows (see
 * `loadRobots`), at most `maxEntries` origins, the least recently used forgotten first. A crawl
 * reads the file afresh: it is the job that decides what the site's llms.txt lists.
 */
import type { Clock } from '../clock.ts';
import type { Fetcher } from './fetcher.ts';
import { loadRobots, type LoadedRobots } from './robots.ts';

const DEFAULT_MAX_ENTRIES = 10_000;

export class RobotsCache {
  private readonly clock: Clock;
  private readonly maxEntries: number;
  /** In use order, least recent first (a Map keeps insertion order). */
  private readonly entries = new Map<string, { loaded: LoadedRobots; expiresAt: number }>();

  constructor(clock: Clock, { maxEntries = DEFAULT_MAX_ENTRIES } = {}) {
    this.clock = clock;
    this.maxEntries = maxEntries;
  }

  /** The robots.txt of `url`'s origin, fetched with `fetcher` unless remembered. Network failures are thrown. */
  async rulesFor(url: string, fetcher: Fetcher, signal?: AbortSignal): Promise<LoadedRobots> {
    const origin = new URL(url).origin;
    const now = this.clock.now().getTime();
    const entry = this.entries.get(origin);
    this.entries.delete(origin);
    if (entry && entry.expiresAt > now) {
      this.entries.set(origin, entry);
      return entry.loaded;
    }
    const loaded = await loadRobots(origin, fetcher, { signal });
    if (loaded.reusableForMs > 0) {
      this.entries.set(origin, { loaded, expiresAt: now + loaded.reusableForMs });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return loaded;
  }
}
