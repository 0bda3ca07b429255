// The server side of the API benchmark, in a process of its own (the load generator must not
// share its event loop): `node bench/api-server.ts bare|pglite|postgres [metrics]` (`metrics`: with
// METRICS_TOKEN set, so every request is counted). Prints one JSON line,
// `{ url, apiKey, jobApiKey, jobId }`, once it listens; runs until killed.
import Fastify from 'fastify';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createTestDatabase, type DatabaseKind } from '../src/testing/databases.ts';

const target = process.argv[2] ?? 'bare';

if (target === 'bare') {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ balance: 20 }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
} else {
  const config = loadConfig({
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
    DATA_DIR: '/nonexistent-bench-data-dir',
    RATE_LIMIT_PER_CALLER: '1000000',
    RATE_LIMIT_JOB_STARTS: '1000000',
    RATE_LIMIT_PUBLIC_PER_IP: '1000000',
    LOG_LEVEL: 'silent',
    ...(process.argv[3] === 'metrics' ? { METRICS_TOKEN: 'bench-metrics-token-0123456789' } : {}),
  });
  const database = await createTestDatabase(target as DatabaseKind);
  // No workers: the job stays queued, and GET /generate/{jobId} reads it.
  const app = await buildApp({ config, database: database.handle, clock: systemClock, runWorkers: false }, false);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: object, token?: string) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  // One account per measured route: each stays within the per-account limit of a minute (1,000,000).
  const { apiKey } = await post('/accounts', { email: 'bench@example.com', firstName: 'Bench' });
  const { apiKey: jobApiKey } = await post('/accounts', { email: 'bench-jobs@example.com', firstName: 'Bench' });
  const { jobId } = await post('/generate', { url: 'https://example.com/', options: { maxUrls: 10, generationMethod: 'simple' } }, jobApiKey);
  console.log(JSON.stringify({ url, apiKey, jobApiKey, jobId }));
  process.on('SIGTERM', async () => {
    await app.close();
    await database.drop();
    process.exit(0);
  });
}
