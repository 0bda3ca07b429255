/**
 * A folder of built HTML served as a static website on 127.0.0.1, for the golden files and the
 * quality bench. Sites built by Docusaurus and Jekyll link to `/x` where the file is `x/index.html`:
 * such a request is redirected to `/x/`, as nginx and Python's http.server do.
 */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

export interface StaticFolder {
  /** e.g. http://127.0.0.1:34567 (no trailing slash) */
  origin: string;
  close(): Promise<void>;
}

export async function serveFolder(root: string): Promise<StaticFolder> {
  const app = Fastify({ logger: false });
  await app.register(fastifyStatic, { root, redirect: true, index: ['index.html'], dotfiles: 'deny' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, close: () => app.close() };
}
