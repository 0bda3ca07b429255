// Balance benchmark: GET /api/v1/credits/balance/api (API key lookup, rate limit, three ledger
// queries, serialization) on PGlite and on PostgreSQL, against a bare Fastify route measured in
// the same run as the baseline. autocannon, 10 connections, ~5 s each, after a 1 s warm-up.
// Run alone: node bench/balance.ts
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { createTestDatabase, type DatabaseKind } from '../src/testing/databases.ts';

const CONNECTIONS = 10;
const SECONDS = Number(process.env.BALANCE_BENCH_SECONDS ?? 5);

export interface Measurement {
  target: string;
  requestsPerSecond: number;
  p99Ms: number;
  /** requests/s as a share of the bare route's */
  ratioToBare: number;
}

export async function runBalanceBench(): Promise<Measurement[]> {
  const bare = await measureBareRoute();
  const results: Measurement[] = [{ target: 'bare Fastify route', ...bare, ratioToBare: 1 }];
  for (const kind of ['pglite', 'postgres'] as const) {
    const measured = await measureBalance(kind);
    results.push({ target: `balance/api on ${kind}`, ...measured, ratioToBare: measured.requestsPerSecond / bare.requestsPerSecond });
  }
  printTable(results);
  return results;
}

async function measureBareRoute(): Promise<{ requestsPerSecond: number; p99Ms: number }> {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ balance: 20 }));
  const url = await listen(app);
  try {
    return await load(`${url}/bare`, {});
  } finally {
    await app.close();
  }
}

async function measureBalance(kind: DatabaseKind): Promise<{ requestsPerSecond: number; p99Ms: number }> {
  const config = loadConfig({
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256',
    DATA_DIR: '/nonexistent-bench-data-dir',
    RATE_LIMIT_PER_CALLER: '1000000',
    RATE_LIMIT_JOB_STARTS: '1000000',
    RATE_LIMIT_PUBLIC_PER_IP: '1000000',
    LOG_LEVEL: 'silent',
  });
  const database = await createTestDatabase(kind);
  const app = await buildApp({ config, database: database.handle, clock: systemClock }, false);
  try {
    const url = await listen(app);
    config.publicUrl = url;
    const signUp = await fetch(`${url}/api/v1/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', firstName: 'Bench' }),
    });
    if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
    const { apiKey } = (await signUp.json()) as { apiKey: string };
    return await load(`${url}/api/v1/credits/balance/api`, { authorization: `Bearer ${apiKey}` });
  } finally {
    await app.close();
    await database.drop();
  }
}

async function listen(app: FastifyInstance | Awaited<ReturnType<typeof buildApp>>): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

/** A warm-up, then the measured run; any answer other than 200 fails the bench rather than flattering it. */
async function load(url: string, headers: Record<string, string>): Promise<{ requestsPerSecond: number; p99Ms: number }> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 1 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, workers: 1 });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99 };
}

function printTable(rows: Measurement[]): void {
  const lines = [
    ['target', 'req/s', 'p99 ms', 'vs bare'],
    ...rows.map((r) => [r.target, String(r.requestsPerSecond), String(r.p99Ms), `${(r.ratioToBare * 100).toFixed(1)}%`]),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(`\nGET /api/v1/credits/balance/api, ${CONNECTIONS} connections, ${SECONDS} s each`);
  for (const line of lines) console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBalanceBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
