// Soak under faults: 2 API and 2 worker processes on one fresh PostgreSQL database, a stream of
// generation and discovery starts (with Idempotency-Keys, some retried, some canceled) from 10
// accounts, while workers are killed with SIGKILL or frozen with SIGSTOP. At the end: every job
// must end, every account's ledger must sum to its balance, no site may be left processing.
// `npm run bench -- soak` (SOAK_SECONDS, default 120). Needs PostgreSQL on 127.0.0.1:5432.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createEmptyPostgresDatabase } from '../src/testing/databases.ts';
import { startSlowSite } from '../src/testing/slow-site.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const API_PORTS = [3811, 3812];
const main = new URL('../src/main.ts', import.meta.url).pathname;

interface Figures {
  jobs: number;
  cancels: number;
  retries: number;
  kills: number;
  pauses: number;
  serverErrors: number;
  drainSeconds: number;
  stuckJobs: number;
  ledgerMismatches: number;
  sitesLeftProcessing: number;
  duplicateJobsFromRetries: number;
  completed: number;
  failed: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];

export async function runSoakBench(): Promise<Figures> {
  const database = await createEmptyPostgresDatabase();
  const site = await startSlowSite(15, 150);
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    CRAWL_ALLOW_PRIVATE: 'true',
    JWT_SECRET: 'soak-secret-that-is-long-enough-for-hs256-xyz',
    JOB_LEASE_SECONDS: '3',
    JOB_MAX_ATTEMPTS: '6',
    SIGNUP_CREDITS: '100000',
    RATE_LIMIT_PER_CALLER: '1000000',
    RATE_LIMIT_JOB_STARTS: '1000000',
    RATE_LIMIT_PUBLIC_PER_IP: '1000000',
    LOG_LEVEL: 'fatal',
    NODE_ENV: 'test',
  };
  const spawnRole = (args: string[], port?: number) =>
    spawn(process.execPath, [main, ...args], { env: { ...env, PORT: String(port ?? 0), HOST: '127.0.0.1' }, stdio: 'ignore' });
  const apis = API_PORTS.map((port) => spawnRole(['serve', '--no-worker'], port));
  const workers: ChildProcess[] = [spawnRole(['worker']), spawnRole(['worker'])];
  const figures: Figures = { jobs: 0, cancels: 0, retries: 0, kills: 0, pauses: 0, serverErrors: 0, drainSeconds: 0, stuckJobs: 0, ledgerMismatches: 0, sitesLeftProcessing: 0, duplicateJobsFromRetries: 0, completed: 0, failed: 0 };

  const serverErrorSamples: string[] = [];
  const call = async (method: string, path: string, token?: string, body?: object, headers: Record<string, string> = {}) => {
    const port = pick(API_PORTS);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (res.status >= 500) {
        figures.serverErrors++;
        if (serverErrorSamples.length < 5) serverErrorSamples.push(`${method} ${path} ${res.status} ${(await res.clone().text()).slice(0, 200)}`);
      }
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    } catch {
      return { status: 0, body: null };
    }
  };

  try {
    // Every API process up, not just the one a first call happens to reach.
    const up = async (port: number) => (await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null))?.status === 200;
    for (let i = 0; !(await Promise.all(API_PORTS.map(up))).every(Boolean); i++) {
      if (i > 300) throw new Error('the API processes did not come up');
      await sleep(100);
    }
    const accounts: string[] = [];
    for (let i = 0; i < 10; i++) {
      const created = await call('POST', '/accounts', undefined, { email: `soak-${i}-${randomUUID()}@example.com`, firstName: 'Soak' });
      accounts.push(created.body.apiKey);
    }

    let chaos = true;
    const chaosLoop = (async () => {
      while (chaos) {
        await sleep(4000 + Math.random() * 6000);
        if (!chaos) break;
        const index = Math.floor(Math.random() * workers.length);
        if (Math.random() < 0.5) {
          workers[index].kill('SIGKILL');
          figures.kills++;
          await sleep(1000);
          workers[index] = spawnRole(['worker']);
        } else {
          workers[index].kill('SIGSTOP');
          figures.pauses++;
          await sleep(2000 + Math.random() * 6000);
          workers[index].kill('SIGCONT');
        }
      }
    })();

    const started = Date.now();
    const generationIds: string[] = [];
    while (Date.now() - started < SECONDS * 1000) {
      const token = pick(accounts);
      const key = randomUUID();
      const generation = Math.random() < 0.7;
      const path = generation ? '/generate' : '/discovery';
      const body = generation
        ? { url: `${site.origin}/?v=${Math.floor(Math.random() * 5)}`, options: { maxUrls: 20, generationMethod: 'simple', cacheAge: 0 } }
        : { url: `${site.origin}/`, maxUrls: 20, discoveryType: 'crawl' };
      const first = await call('POST', path, token, body, { 'idempotency-key': key });
      figures.jobs++;
      if (Math.random() < 0.2) {
        // The answer was "lost": the client retries with the same key and must get the same job.
        const retry = await call('POST', path, token, body, { 'idempotency-key': key });
        figures.retries++;
        const id = (answer: typeof first) => answer.body?.jobId ?? answer.body?.id;
        if (retry.status < 300 && first.status < 300 && id(retry) !== id(first)) figures.duplicateJobsFromRetries++;
      }
      if (generation && first.body?.jobId) {
        generationIds.push(first.body.jobId);
        if (Math.random() < 0.1) {
          await call('DELETE', `/generate/${pick(generationIds)}`, token);
          figures.cancels++;
        }
      }
      await sleep(150);
    }
    chaos = false;
    await chaosLoop;
    for (const worker of workers) worker.kill('SIGCONT');

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const drainStarted = Date.now();
      const unfinished = async () =>
        Number(
          (
            await client.query(
              `SELECT (SELECT count(*) FROM generation_jobs WHERE status IN ('pending','processing')) + (SELECT count(*) FROM discovery_jobs WHERE status IN ('pending','processing')) AS n`,
            )
          ).rows[0].n,
        );
      while ((await unfinished()) > 0 && Date.now() - drainStarted < 300_000) await sleep(500);
      figures.drainSeconds = Math.round((Date.now() - drainStarted) / 100) / 10;
      figures.stuckJobs = await unfinished();
      const ended = await client.query(
        `SELECT status, count(*)::int AS n FROM (SELECT status FROM generation_jobs UNION ALL SELECT status FROM discovery_jobs) j GROUP BY status`,
      );
      for (const row of ended.rows) if (row.status === 'completed' || row.status === 'failed') figures[row.status as 'completed' | 'failed'] = row.n;
      figures.ledgerMismatches = Number(
        (
          await client.query(
            `SELECT count(*) AS n FROM accounts a WHERE a.credit_balance <> (SELECT coalesce(sum(amount), 0) FROM credit_transactions t WHERE t.account_id = a.id)`,
          )
        ).rows[0].n,
      );
      figures.sitesLeftProcessing = Number(
        (
          await client.query(
            `SELECT count(*) AS n FROM sites s WHERE s.status = 'processing' AND NOT EXISTS (SELECT 1 FROM generation_jobs j WHERE j.site_id = s.id AND j.status = 'processing')`,
          )
        ).rows[0].n,
      );
    } finally {
      await client.end();
    }
  } finally {
    for (const child of [...apis, ...workers]) child.kill('SIGKILL');
    await sleep(500);
    await site.close();
    await database.drop();
  }
  console.table([figures]);
  for (const sample of serverErrorSamples) console.log(`5xx: ${sample}`);
  return figures;
}
