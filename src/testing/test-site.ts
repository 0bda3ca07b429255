// Local HTTP servers for the tests: real sockets on 127.0.0.1, no network.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import zlib from 'node:zlib';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => unknown;

export interface TestSite {
  /** e.g. http://127.0.0.1:34567 (no trailing slash) */
  origin: string;
  port: number;
  /** Request paths (with query) in arrival order. */
  hits: string[];
  close(): Promise<void>;
}

export async function startSite(handler: Handler, host = '127.0.0.1', listenPort = 0): Promise<TestSite> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    Promise.resolve(handler(req, res)).catch((err) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(listenPort, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Route =
  | string
  | { status?: number; headers?: Record<string, string>; body?: string | Buffer }
  | Handler;

/** A handler serving a fixed map of paths; strings are HTML pages, anything else is 404. */
export function routes(map: Record<string, Route>): Handler {
  return (req, res) => {
    const route = map[req.url ?? ''];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    } else if (typeof route === 'function') {
      return route(req, res);
    } else if (typeof route === 'string') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(route);
    } else {
      res.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/html; charset=utf-8' });
      res.end(route.body ?? '');
    }
  };
}

export function page(title: string, links: string[] = [], head = ''): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join('\n');
  return `<!doctype html><html><head><title>${title}</title>${head}</head><body><h1>${title}</h1>${anchors}</body></html>`;
}

/** ~1 GB of zeros as gzip: one 1 MB member repeated (gunzip reads concatenated members). */
export function gzipBomb(gigabytes = 1): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: 1024 * gigabytes }, () => member));
}

/**
 * A site for a whole test file, started before its tests and closed after them, serving `pages`
 * as they are when asked: the tests rewrite them between generations.
 */
export function rewritableSite(): { pages: Record<string, Route>; readonly origin: string } {
  const pages: Record<string, Route> = {};
  let site: TestSite | undefined;
  before(async () => {
    site = await startSite(routes(pages));
  });
  after(async () => {
    await site?.close();
  });
  return {
    pages,
    get origin() {
      return site!.origin;
    },
  };
}
