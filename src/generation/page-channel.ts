import type { ResponseBody } from '../crawl/index.ts';
import type { PageInput } from '../llms-txt/index.ts';

/** A page with the response it was decoded from (its bytes cross to the generation thread, see generation-thread.ts). */
export type CollectedPage = PageInput & { response: Pick<ResponseBody, 'body' | 'contentType'> };

/** A bounded async queue of pages: push waits while it is full, iteration waits while it is empty. */
export class PageChannel implements AsyncIterable<CollectedPage> {
  private readonly buffer: CollectedPage[] = [];
  private closed = false;
  private failure: unknown = null;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducers: Array<() => void> = [];
  private lastModified = new Map<string, string | null>();

  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Crawled pages arrive before the sitemap dates are known; they get them on the way out. */
  setLastModified(map: Map<string, string | null>): void {
    this.lastModified = map;
  }

  async push(page: CollectedPage): Promise<void> {
    while (this.buffer.length >= this.capacity && !this.closed) await new Promise<void>((r) => this.wakeProducers.push(r));
    this.buffer.push(page);
    this.wakeConsumer?.();
  }

  close(error?: unknown): void {
    this.closed = true;
    this.failure = error ?? null;
    this.wakeConsumer?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<CollectedPage> {
    for (;;) {
      const page = this.buffer.shift();
      if (page) {
        this.wakeProducers.shift()?.();
        yield { ...page, lastModified: page.lastModified ?? this.lastModified.get(page.url) ?? null };
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((r) => (this.wakeConsumer = r));
      this.wakeConsumer = null;
    }
  }
}
