// Job pickup: how long a generation job waits before an idle worker starts it. The real service
// runs in a child process (as `npm start` runs it), on PGlite and on PostgreSQL; this process
// starts ROUNDS jobs one after another against a one-page site, each once the worker is idle
// again, and polls the job's status every 2 ms. Pickup is the time from the 202 to the first
// answer that is no longer `pending`; the baseline, measured in the same run, is one status read
// (the poll's own resolution).
// Run alone: node bench/pickup.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEmptyPostgresDatabase } from '../src/testing/databases.ts';
import { startBenchService } from './generate.ts';
import { startNginx } from './static-site.ts';

const ROUNDS = Number(process.env.BENCH_PICKUP_ROUNDS ?? 20);

export interface PickupMeasurement {
  database: string;
  medianMs: number;
  p90Ms: number;
  statusReadMs: number;
}

export async function runPickupBench(): Promise<PickupMeasurement[]> {
  const work = mkdtempSync(join(tmpdir(), 'pickup-bench-'));
  writeFileSync(join(work, 'index.html'), '<html><head><title>One page</title></head><body><p>A page with a sentence on it, long enough.</p></body></html>');
  const site = await startNginx(work, work);
  const postgres = await createEmptyPostgresDatabase();
  const results: PickupMeasurement[] = [];
  try {
    for (const [database, env] of [['pglite', {}], ['postgres', { DATABASE_URL: postgres.url }]] as const) {
      const service = await startBenchService(work, env);
      try {
        results.push({ database, ...(await measure(service.base, `http://127.0.0.1:${site.port}/`)) });
      } finally {
        await service.stop();
      }
    }
  } finally {
    site.stop();
    await postgres.drop();
    rmSync(work, { recursive: true, force: true });
  }
  printTable(results);
  return results;
}

async function measure(base: string, url: string): Promise<Omit<PickupMeasurement, 'database'>> {
  const account = await call(`${base}/accounts`, 'POST', { email: `pickup-${Date.now()}@example.com`, firstName: 'Bench' });
  const auth = account.apiKey as string;
  const pickups: number[] = [];
  const reads: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const { jobId } = await call(`${base}/generate`, 'POST', { url, options: { maxUrls: 1, cacheAge: 0 } }, auth);
    const accepted = performance.now();
    for (;;) {
      const before = performance.now();
      const job = await call(`${base}/generate/${jobId}`, 'GET', undefined, auth);
      reads.push(performance.now() - before);
      if (job.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    pickups.push(performance.now() - accepted);
    // The next job goes to an idle worker: wait for this one to finish.
    while ((await call(`${base}/generate/${jobId}`, 'GET', undefined, auth)).status === 'processing') await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { medianMs: quantile(pickups, 0.5), p90Ms: quantile(pickups, 0.9), statusReadMs: quantile(reads, 0.5) };
}

async function call(url: string, method: string, body?: unknown, token?: string): Promise<any> {
  const response = await fetch(url, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function printTable(results: PickupMeasurement[]): void {
  console.log(`\nJob pickup on an idle worker, ${ROUNDS} jobs each (target: ≤ 50 ms)`);
  console.log('database    median ms   p90 ms   one status read ms (baseline)   median ÷ status read');
  for (const r of results) {
    console.log(
      `${r.database.padEnd(10)} ${r.medianMs.toFixed(1).padStart(10)} ${r.p90Ms.toFixed(1).padStart(8)} ${r.statusReadMs.toFixed(1).padStart(32)} ${(r.medianMs / r.statusReadMs).toFixed(1).padStart(22)}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  runPickupBench().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
