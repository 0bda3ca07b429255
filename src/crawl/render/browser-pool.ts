/**
 * Headless Chromium for rendering, one per process: started on first use, shared by the jobs a
 * few pages at a time, closed when idle. The browser itself reaches no network: its proxy is an
 * address nothing listens on, so whatever the page's route interception does not answer
 * (WebSockets, prefetches) fails; every request that is answered goes through the crawler's
 * fetcher (render-page.ts).
 */
import { accessSync, constants } from 'node:fs';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Browser } from 'playwright-core';
import { errors } from '../../errors.ts';
import type { RenderMode } from './modes.ts';
import type { RenderSettings } from '../../config.ts';

/** A port on loopback nothing should listen on; the guard refuses loopback to the page anyway. */
const DEAD_PROXY = 'http://127.0.0.1:9';

function launchArgs(settings: RenderSettings): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--dns-prefetch-disable',
    `--proxy-server=${DEAD_PROXY}`,
    // Without it Chromium sends loopback addresses around the proxy.
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    `--js-flags=--max-old-space-size=${settings.memoryMb}`,
  ];
}

/** Whether Chromium is installed at `path` (an executable file). */
export function chromiumAvailable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Refuses, at a job's start, a render mode this server cannot honour. */
export function assertCanRender(render: RenderMode, settings: Pick<RenderSettings, 'chromiumPath'>): void {
  if (render !== 'never' && !chromiumAvailable(settings.chromiumPath)) throw errors.renderingUnavailable();
}

export class BrowserPool {
  readonly settings: RenderSettings;
  private readonly limit: LimitFunction;
  private browser: Promise<Browser> | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(settings: RenderSettings) {
    this.settings = settings;
    this.limit = pLimit(settings.concurrency);
  }

  /** Runs `work` with the browser when one of the pool's places is free. */
  use<T>(work: (browser: Browser) => Promise<T>): Promise<T> {
    return this.limit(async () => {
      if (this.closed) throw new Error('The renderer is shut down');
      this.stopIdleTimer();
      try {
        return await work(await this.open());
      } finally {
        if (this.limit.activeCount + this.limit.pendingCount <= 1) this.startIdleTimer();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopIdleTimer();
    await this.shut();
  }

  /** Whether a browser process is running now (tests). */
  get running(): boolean {
    return this.browser !== null;
  }

  private open(): Promise<Browser> {
    if (!this.browser) {
      // Loaded with the first page to render: most processes never render one (docs/decisions/process-memory.md).
      const launching = import('playwright-core').then(({ chromium }) =>
        chromium.launch({ executablePath: this.settings.chromiumPath, args: launchArgs(this.settings), timeout: 30_000 }),
      );
      this.browser = launching;
      launching.then(
        (browser) => browser.on('disconnected', () => this.browser === launching && (this.browser = null)),
        () => this.browser === launching && (this.browser = null),
      );
    }
    return this.browser;
  }

  private async shut(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    await browser?.then((b) => b.close()).catch(() => {});
  }

  private startIdleTimer(): void {
    this.stopIdleTimer();
    this.idleTimer = setTimeout(() => void this.shut(), this.settings.idleMs);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
