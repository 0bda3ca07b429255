// Isolation benchmark: can one account's requests or jobs slow the service down for everyone?
// Eight attacks, each on a service of its own (a child process, as `npm start` runs it, on
// embedded PGlite; PostgreSQL for the scheduled checks, whose due times the bench sets in the
// database). The hostile and slow sites and the webhook receivers run in a third process
// (bench/isolation-sites.ts); this process is the load generator. `npm run bench -- isolation`
// (about 8 minutes); BENCH_ISOLATION_ATTACKS=name,name runs only those attacks; BENCH_SERVICE_DIR
// runs another checkout's service (see bench/generate.ts).
//
// What each row means. `/health at rest` is the worst (and p99) latency of GET /health, polled
// one request at a time every 50 ms for 3 s, on the same service just before the attack;
// `/health under attack` the same while the attack lasts. `victim alone` is another account's
// job (or webhook delivery, or scheduled check) on the same service before the attack, `victim
// under attack` the same during it; "> N s" means it had not finished when the attack's cap ran
// out. The rows:
// - crafted page: one generation (maxUrls 1) of a page whose meta description holds 40,000 `{{`.
// - schedule flood: PUT /sites/{random id}/schedule with `0 0 * 2 1#5`, 4 a second for 15 s.
// - slow jobs: the attacker starts 6 crawl discoveries of a site whose pages answer after 5 s;
//   victim: a discovery of a one-page site (429s to the attacker are counted in the notes).
// - slow webhooks: the attacker has 20 endpoints that never answer and finishes 3 discoveries;
//   victim: from its discovery's completedAt to its endpoint's receiving the event.
// - slow checks: the attacker's 3 sites (8 pages each) answer after 5 s, their schedules due
//   and taken up just before the victim's comes due; victim: from its due time to its check's start.
// - large downloads: 100 concurrent downloads of an 11 MB llms-full.txt (120 pages); the notes give the
//   service's RSS before and its peak during them (VmHWM, reset just before).
// - nested JSON: 20 parallel 1 MB bodies `[[[…]]]` to POST /accounts.
// - slow-loris: 200 sockets sending a header line a second for 20 s; the notes count those the
//   service had not closed by then.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { Agent, request } from 'undici';
import { createEmptyPostgresDatabase } from '../src/testing/databases.ts';
import { startBenchService, type BenchService } from './generate.ts';

/** The longest a /health answer, or a victim, is waited for. */
const CAP_MS = 45_000;
const REST_MS = 3000;
const sitesScript = new URL('./isolation-sites.ts', import.meta.url).pathname;

type Sites = Record<'crafted' | 'fast' | 'slow' | 'big' | 'checked0' | 'checked1' | 'checked2' | 'receiver' | 'hang', string>;

interface Context {
  service: BenchService;
  sites: Sites;
  /** The service's database, when it runs on PostgreSQL. */
  db?: pg.Client;
}

interface Outcome {
  victimAloneMs?: number;
  /** Infinity when the victim had not finished within CAP_MS. */
  victimMs?: number;
  notes: string;
}

interface Attack {
  name: string;
  postgres?: boolean;
  /** Accounts, files and the victim's time alone; runs before /health is measured at rest. */
  prepare(ctx: Context): Promise<Record<string, any>>;
  /** The attack itself, while /health is polled; ends within about CAP_MS. */
  run(ctx: Context, prepared: Record<string, any>): Promise<Outcome>;
}

export interface IsolationRow extends Outcome {
  attack: string;
  /** Absent when the attack could not be run (its notes say why). */
  rest?: Latency;
  underAttack?: Latency;
}

interface Latency {
  worstMs: number;
  p99Ms: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A duration for the table: "-" when not measured, under a second in ms. */
const seconds = (ms: number | undefined) =>
  ms === undefined ? '-' : ms === Infinity ? `> ${CAP_MS / 1000} s` : ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
/** Aborts at `deadline` (a performance.now() time). */
const until = (deadline: number) => AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now())));
const milliseconds = (ms: number) => (ms === Infinity ? `> ${CAP_MS / 1000} s` : ms.toFixed(0));
const latency = (measured?: Latency) => (measured ? `${milliseconds(measured.worstMs)} (${milliseconds(measured.p99Ms)})` : '-');

/** One API call; a call still unanswered at `deadline` (performance.now()) counts as status 0. */
async function call(ctx: Context, method: string, path: string, token?: string, body?: unknown, deadline = performance.now() + CAP_MS) {
  try {
    const response = await fetch(`${ctx.service.base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: until(deadline),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as any };
  } catch {
    return { status: 0, body: null };
  }
}

async function account(ctx: Context): Promise<string> {
  const created = await call(ctx, 'POST', '/accounts', undefined, { email: `isolation-${randomUUID()}@example.com`, firstName: 'Bench' });
  if (created.status !== 201) throw new Error(`account creation answered ${created.status}`);
  return created.body.apiKey;
}

/** Calls `check` every 50 ms until it answers something other than undefined; undefined if `deadline` passes first. */
async function poll<T>(check: () => Promise<T | undefined>, deadline: number): Promise<T | undefined> {
  while (performance.now() < deadline) {
    const answer = await check();
    if (answer !== undefined) return answer;
    await sleep(50);
  }
  return undefined;
}

/** Polls `path` until its job ends; the job, or undefined when it had not ended by `deadline`. */
async function jobEnd(ctx: Context, path: string, token: string, deadline = performance.now() + CAP_MS): Promise<any> {
  return poll(async () => {
    const { body } = await call(ctx, 'GET', path, token, undefined, deadline);
    return body?.status === 'completed' || body?.status === 'failed' ? body : undefined;
  }, deadline);
}

/** A discovery's time from its start to the first poll that finds it ended; Infinity past the cap. */
async function discoveryTime(ctx: Context, token: string, url: string): Promise<number> {
  const started = performance.now();
  const start = await call(ctx, 'POST', '/discovery', token, { url, maxUrls: 1, discoveryType: 'crawl' });
  if (start.status !== 201) throw new Error(`discovery start answered ${start.status}`);
  const job = await jobEnd(ctx, `/discovery/${start.body.id}`, token, started + CAP_MS);
  return job ? performance.now() - started : Infinity;
}

async function generate(ctx: Context, token: string, url: string, options: Record<string, unknown>): Promise<any> {
  const start = await call(ctx, 'POST', '/generate', token, { url, options: { generationMethod: 'simple', cacheAge: 0, ...options } });
  if (start.status >= 300) throw new Error(`generation start answered ${start.status}: ${start.body?.message}`);
  const job = await jobEnd(ctx, `/generate/${start.body.jobId}`, token, performance.now() + 5 * 60_000);
  if (job?.status !== 'completed') throw new Error(`generation of ${url} did not complete: ${job?.error}`);
  return job;
}

/** Counts of each status, e.g. "58 × 404, 2 × no answer". */
function statuses(codes: number[]): string {
  const counts = new Map<number, number>();
  for (const code of codes) counts.set(code, (counts.get(code) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${n} × ${code === 0 ? 'no answer' : code}`).join(', ');
}

/** The connection /health is polled on, apart from the attack's. */
const healthAgent = new Agent({ connections: 1 });

async function health(ctx: Context): Promise<void> {
  const answer = await request(`${ctx.service.base}/health`, { dispatcher: healthAgent, signal: AbortSignal.timeout(CAP_MS) });
  await answer.body.dump();
}

interface Answer {
  status: number;
  ms: number;
}

/** The status of a call and how long it took (Infinity when it had no answer). */
async function timed(answer: Promise<{ status: number }>): Promise<Answer> {
  const asked = performance.now();
  const { status } = await answer;
  return { status, ms: status === 0 ? Infinity : performance.now() - asked };
}

/** e.g. "58 × 404, 2 × no answer; slowest > 45 s". */
function answered(answers: Answer[]): string {
  return `${statuses(answers.map((answer) => answer.status))}; slowest ${seconds(Math.max(...answers.map((answer) => answer.ms)))}`;
}

/** GET /health one request at a time, 50 ms apart, until stopped. */
function pollHealth(ctx: Context): () => Promise<Latency> {
  const latencies: number[] = [];
  let polling = true;
  const loop = (async () => {
    while (polling) {
      const asked = performance.now();
      try {
        await health(ctx);
        latencies.push(performance.now() - asked);
      } catch {
        latencies.push(Infinity);
        return;
      }
      await sleep(50);
    }
  })();
  return async () => {
    polling = false;
    await loop;
    const sorted = latencies.sort((a, b) => a - b);
    return { worstMs: sorted.at(-1) ?? 0, p99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? 0 };
  };
}

const crafted: Attack = {
  name: 'crafted page',
  prepare: async (ctx) => ({ token: await account(ctx) }),
  async run(ctx, { token }) {
    const started = performance.now();
    const start = await call(ctx, 'POST', '/generate', token, { url: `${ctx.sites.crafted}/`, options: { maxUrls: 1, generationMethod: 'simple', cacheAge: 0 } });
    if (start.status >= 300) return { notes: `start answered ${start.status}` };
    const job = await jobEnd(ctx, `/generate/${start.body.jobId}`, token, started + CAP_MS);
    return { notes: job ? `job ${job.status} after ${seconds(performance.now() - started)}` : 'job still running at the cap' };
  },
};

const scheduleFlood: Attack = {
  name: 'schedule flood',
  prepare: async (ctx) => ({ token: await account(ctx) }),
  async run(ctx, { token }) {
    const answers: Promise<Answer>[] = [];
    const deadline = performance.now() + CAP_MS;
    for (let i = 0; i < 60; i++) {
      answers.push(timed(call(ctx, 'PUT', `/sites/${randomUUID()}/schedule`, token, { frequency: '0 0 * 2 1#5' }, deadline)));
      await sleep(250);
    }
    return { notes: answered(await Promise.all(answers)) };
  },
};

const slowJobs: Attack = {
  name: 'slow jobs',
  async prepare(ctx) {
    const victim = await account(ctx);
    return { victim, attacker: await account(ctx), alone: await discoveryTime(ctx, victim, `${ctx.sites.fast}/`) };
  },
  async run(ctx, { victim, attacker, alone }) {
    const starts: number[] = [];
    for (let i = 0; i < 6; i++) starts.push((await call(ctx, 'POST', '/discovery', attacker, { url: `${ctx.sites.slow}/${i}/`, maxUrls: 1000, discoveryType: 'crawl' })).status);
    const victimMs = await discoveryTime(ctx, victim, `${ctx.sites.fast}/`);
    return { victimAloneMs: alone, victimMs, notes: `attacker's starts: ${statuses(starts)}` };
  },
};

/** Milliseconds from the victim's discovery's completedAt to its endpoint's receiving the event; Infinity past the cap. */
async function deliveryTime(ctx: Context, token: string, hook: string): Promise<number> {
  const arrivals = async () => ((await (await fetch(`${ctx.sites.receiver}/arrivals`)).json()) as Record<string, number[]>)[hook] ?? [];
  const before = (await arrivals()).length;
  const start = await call(ctx, 'POST', '/discovery', token, { url: `${ctx.sites.fast}/`, maxUrls: 1, discoveryType: 'crawl' });
  const deadline = performance.now() + CAP_MS;
  const job = await jobEnd(ctx, `/discovery/${start.body.id}`, token, deadline);
  const received = job && (await poll(async () => (await arrivals())[before], deadline));
  return received ? received - Date.parse(job.completedAt) : Infinity;
}

const slowWebhooks: Attack = {
  name: 'slow webhooks',
  async prepare(ctx) {
    const [victim, attacker] = [await account(ctx), await account(ctx)];
    const hook = `victim-${randomUUID()}`;
    const endpoint = (token: string, url: string) => call(ctx, 'POST', '/webhooks/endpoints', token, { url, events: ['discovery.completed'] });
    if ((await endpoint(victim, `${ctx.sites.receiver}/hook/${hook}`)).status !== 201) throw new Error("the victim's endpoint was refused");
    let endpoints = 0;
    for (let i = 0; i < 20; i++) if ((await endpoint(attacker, `${ctx.sites.hang}/${i}`)).status === 201) endpoints++;
    return { victim, attacker, hook, endpoints, alone: await deliveryTime(ctx, victim, hook) };
  },
  async run(ctx, { victim, attacker, hook, endpoints, alone }) {
    const triggers = await Promise.all([0, 1, 2].map(() => discoveryTime(ctx, attacker, `${ctx.sites.fast}/`)));
    const victimMs = await deliveryTime(ctx, victim, hook);
    return { victimAloneMs: alone, victimMs, notes: `${triggers.filter(Number.isFinite).length} attacker discoveries × ${endpoints} endpoints` };
  },
};

/**
 * Milliseconds from the due time of `victimSite`'s schedule to its check's start. `attackerSites`
 * come due first, and the victim's schedule once the scheduler has taken theirs up (a claimed
 * schedule's next run is its lease, minutes ahead).
 */
async function checkDelay(ctx: Context, victimSite: string, attackerSites: string[] = []): Promise<number> {
  const db = ctx.db!;
  await db.query(`UPDATE site_schedules SET next_run_at = now() WHERE site_id = ANY($1)`, [attackerSites]);
  const claimed = `SELECT count(*)::int AS n FROM site_schedules WHERE site_id = ANY($1) AND next_run_at > now() + interval '1 minute'`;
  await poll(async () => ((await db.query(claimed, [attackerSites])).rows[0].n === attackerSites.length ? true : undefined), performance.now() + 10_000);
  const [{ due }] = (await db.query(`UPDATE site_schedules SET next_run_at = now() WHERE site_id = $1 RETURNING next_run_at AS due`, [victimSite])).rows;
  // last_checked_at is the check's start, written when it ends.
  const checked = `SELECT last_checked_at AS checked FROM site_schedules WHERE site_id = $1 AND last_checked_at >= $2`;
  const start = await poll(async () => (await db.query(checked, [victimSite, due])).rows[0]?.checked as Date | undefined, performance.now() + CAP_MS);
  return start ? start.getTime() - due.getTime() : Infinity;
}

const slowChecks: Attack = {
  name: 'slow checks',
  postgres: true,
  async prepare(ctx) {
    const [victim, attacker] = [await account(ctx), await account(ctx)];
    const scheduled = async (token: string, url: string, maxUrls: number) => {
      const job = await generate(ctx, token, url, { maxUrls });
      const answer = await call(ctx, 'PUT', `/sites/${job.siteId}/schedule`, token, { frequency: 'daily' });
      if (answer.status !== 200) throw new Error(`schedule answered ${answer.status}`);
      return job.siteId as string;
    };
    const victimSite = await scheduled(victim, `${ctx.sites.fast}/`, 1);
    const attackerSites = await Promise.all([ctx.sites.checked0, ctx.sites.checked1, ctx.sites.checked2].map((site) => scheduled(attacker, `${site}/`, 8)));
    return { victimSite, attackerSites, alone: await checkDelay(ctx, victimSite) };
  },
  async run(ctx, { victimSite, attackerSites, alone }) {
    await fetch(`${ctx.sites.receiver}/slow-checks`, { method: 'POST' });
    return { victimAloneMs: alone, victimMs: await checkDelay(ctx, victimSite, attackerSites), notes: '3 attacker sites × 8 pages' };
  },
};

/** Resident memory of the service, in MB: VmRSS now, or VmHWM (the peak since the last reset). */
function rssMb(ctx: Context, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${ctx.service.pid}/status`, 'utf8'))![1]) / 1024;
}

const largeDownloads: Attack = {
  name: 'large downloads',
  async prepare(ctx) {
    const job = await generate(ctx, await account(ctx), `${ctx.sites.big}/`, { maxUrls: 130, showFullText: true });
    const bytes = (await (await fetch(job.fullTextUrl)).arrayBuffer()).byteLength;
    return { url: job.fullTextUrl, bytes };
  },
  async run(ctx, { url, bytes }) {
    const before = rssMb(ctx, 'VmRSS');
    // Writing 5 to clear_refs resets the peak (VmHWM) to the current RSS.
    writeFileSync(`/proc/${ctx.service.pid}/clear_refs`, '5');
    const agent = new Agent({ connections: 100 });
    const started = performance.now();
    const deadline = started + CAP_MS;
    const codes = await Promise.all(
      Array.from({ length: 100 }, async () => {
        try {
          const answer = await request(url, { dispatcher: agent, signal: until(deadline) });
          await answer.body.dump({ limit: Infinity });
          return answer.statusCode;
        } catch {
          return 0;
        }
      }),
    );
    const took = performance.now() - started;
    await agent.close();
    const file = `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    return { notes: `RSS ${before.toFixed(0)} → peak ${rssMb(ctx, 'VmHWM').toFixed(0)} MB; ${file} file, ${statuses(codes)} in ${seconds(took)}` };
  },
};

const nestedJson: Attack = {
  name: 'nested JSON',
  prepare: async () => ({}),
  async run(ctx) {
    const depth = 500_000;
    const body = '['.repeat(depth) + ']'.repeat(depth);
    return { notes: answered(await Promise.all(Array.from({ length: 20 }, () => timed(call(ctx, 'POST', '/accounts', undefined, body))))) };
  },
};

const slowLoris: Attack = {
  name: 'slow-loris',
  prepare: async () => ({}),
  async run(ctx) {
    const { hostname, port } = new URL(ctx.service.base);
    const sockets = Array.from({ length: 200 }, () => {
      const socket = net.connect(Number(port), hostname, () => socket.write(`GET /api/v1/health HTTP/1.1\r\nHost: ${hostname}\r\n`));
      socket.on('error', () => {});
      return socket;
    });
    for (let second = 0; second < 20; second++) {
      await sleep(1000);
      for (const socket of sockets) if (!socket.destroyed) socket.write(`x-trickle-${second}: ${second}\r\n`);
    }
    const open = sockets.filter((socket) => !socket.destroyed && !socket.readableEnded).length;
    for (const socket of sockets) socket.destroy();
    return { notes: `${open} of 200 sockets still open after 20 s` };
  },
};

const ATTACKS = [crafted, scheduleFlood, slowJobs, slowWebhooks, slowChecks, largeDownloads, nestedJson, slowLoris];
/** BENCH_ISOLATION_ATTACKS=slow-loris,nested JSON runs only those attacks (a fix's own row). */
const only = (process.env.BENCH_ISOLATION_ATTACKS ?? '').split(',').map((name) => name.trim()).filter(Boolean);

export async function runIsolationBench(): Promise<IsolationRow[]> {
  const work = mkdtempSync(join(tmpdir(), 'isolation-bench-'));
  const sitesProcess = spawn(process.execPath, [sitesScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  const rows: IsolationRow[] = [];
  try {
    const sites = JSON.parse(await firstLine(sitesProcess)) as Sites;
    for (const attack of ATTACKS.filter((attack) => only.length === 0 || only.includes(attack.name))) {
      console.log(`… ${attack.name}`);
      // A service that refuses a step of the setup (a new limit, say) costs its row, not the others.
      rows.push(await measure(attack, sites, work).catch((error: Error) => ({ attack: attack.name, notes: `not run: ${error.message}` })));
    }
  } finally {
    sitesProcess.kill('SIGKILL');
    await healthAgent.close();
    rmSync(work, { recursive: true, force: true });
  }
  printTable(rows);
  return rows;
}

async function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench/isolation-sites.ts exited with ${code}`)));
  });
}

/** One attack on a new service: prepared, /health at rest, then the attack with /health polled. */
async function measure(attack: Attack, sites: Sites, work: string): Promise<IsolationRow> {
  const database = attack.postgres ? await createEmptyPostgresDatabase() : null;
  const env: Record<string, string> = { LOG_LEVEL: 'fatal', RATE_LIMIT_JOB_STARTS: '1000000', RATE_LIMIT_PUBLIC_PER_IP: '1000000', ...(database ? { DATABASE_URL: database.url } : {}) };
  const service = await startBenchService(work, env);
  const db = database ? new pg.Client({ connectionString: database.url }) : undefined;
  await db?.connect();
  const ctx: Context = { service, sites, db };
  try {
    const prepared = await attack.prepare(ctx);
    await health(ctx); // opens the connection, not measured
    const stopAtRest = pollHealth(ctx);
    await sleep(REST_MS);
    const rest = await stopAtRest();
    const stopUnderAttack = pollHealth(ctx);
    const outcome = await attack.run(ctx, prepared);
    return { attack: attack.name, rest, underAttack: await stopUnderAttack(), ...outcome };
  } finally {
    await db?.end();
    // A service stuck in a job may never get to its SIGTERM handler.
    const kill = setTimeout(() => process.kill(service.pid, 'SIGKILL'), 5000);
    await service.stop();
    clearTimeout(kill);
    await database?.drop();
  }
}

function printTable(rows: IsolationRow[]): void {
  const header = ['attack', '/health at rest worst (p99) ms', 'under attack worst (p99) ms', 'victim alone', 'victim under attack', 'notes'];
  const lines = rows.map((row) => [
    row.attack,
    latency(row.rest),
    latency(row.underAttack),
    seconds(row.victimAloneMs),
    seconds(row.victimMs),
    row.notes,
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  console.log(`\nIsolation: one account's attack against /health and another account's work (cap ${CAP_MS / 1000} s)`);
  for (const line of [header, ...lines]) console.log(line.map((cell, i) => (i === 0 || i === 5 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runIsolationBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
