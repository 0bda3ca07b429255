/**
 * The robots.txt rules of the origins one job touches, for the requests it makes beside the crawl
 * (a rendered page's scripts, a page's markdown copy): the crawl's own reading when it has one
 * (`set`), else read once per origin. A file that cannot be read disallows everything.
 */
import type { Fetcher } from './fetcher.ts';
import { DISALLOW_ALL, loadRobots, type Robots } from './robots.ts';

export class KnownRobots {
  private readonly byOrigin = new Map<string, Promise<Robots>>();
  private readonly fetcher: Fetcher;

  constructor(fetcher: Fetcher) {
    this.fetcher = fetcher;
  }

  set(origin: string, robots: Robots): void {
    this.byOrigin.set(origin, Promise.resolve(robots));
  }

  /** Whether robots.txt lets the job fetch `url`. */
  async allows(url: URL, signal?: AbortSignal): Promise<boolean> {
    let robots = this.byOrigin.get(url.origin);
    if (!robots) {
      robots = loadRobots(url.origin, this.fetcher, { signal }).then(
        (loaded) => loaded.robots,
        () => DISALLOW_ALL,
      );
      this.byOrigin.set(url.origin, robots);
    }
    return (await robots).isAllowed(url.href);
  }
}
