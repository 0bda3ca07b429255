// API benchmark: authenticated reads (GET /api/v1/credits/balance/api, GET /api/v1/generate/{jobId})
// on PGlite and on PostgreSQL, each against a bare Fastify route measured just before it as the
// baseline. Every server runs in a process of its own (bench/api-server.ts); autocannon runs in
// this one. 50 connections; after a 3 s warm-up of each, the bare route and the target take turns
// for ROUNDS rounds of BENCH_API_SECONDS (default 5) each, and each figure is the median round's.
// autocannon counts latency in whole milliseconds, and the bare route's p99 sits at 1 or 2: one
// round's p99 ratio could double from one run to the next (docs/decisions/benchmarks.md).
// Run alone: node bench/balance.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { startCommand } from './generate.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const ROUNDS = 3;
const serverScript = new URL('./api-server.ts', import.meta.url).pathname;

export interface Measurement {
  target: string;
  requestsPerSecond: number;
  p99Ms: number;
  /** the bare route's requests/s, in the rounds it took turns with the target */
  bareRequestsPerSecond: number;
  /** requests/s as a share of the bare route's in the same round */
  ratioToBare: number;
  /** p99 latency as a multiple of the bare route's in the same round */
  p99ToBare: number;
}

export async function runBalanceBench(): Promise<Measurement[]> {
  // The machine's speed drifts over a run: each round of a target comes right after one of the
  // bare route, and its ratios are to that round.
  const bareServer = await startServer('bare');
  const results: Measurement[] = [];
  try {
    for (const kind of ['pglite', 'postgres'] as const) {
      const server = await startServer(kind);
      try {
        for (const [name, path, apiKey] of [
          ['balance/api', '/api/v1/credits/balance/api', server.apiKey],
          ['generate/{jobId}', `/api/v1/generate/${server.jobId}`, server.jobApiKey],
        ]) {
          results.push({ target: `${name} on ${kind}`, ...(await alternate({ url: `${bareServer.url}/bare`, headers: {} }, { url: `${server.url}${path}`, headers: { authorization: `Bearer ${apiKey}` } })) });
        }
      } finally {
        server.stop();
      }
    }
  } finally {
    bareServer.stop();
  }
  printTable(results);
  return results;
}

/**
 * The cost of the metrics on the hot path: GET /credits/balance/api on PGlite, a service counting
 * every request (METRICS_TOKEN set) taking turns with one that counts nothing, same run.
 */
export async function runMetricsBench(): Promise<Measurement[]> {
  const [plain, counted] = [await startServer('pglite'), await startServer('pglite', ['metrics'])];
  try {
    const target = (server: typeof plain) => ({ url: `${server.url}/api/v1/credits/balance/api`, headers: { authorization: `Bearer ${server.apiKey}` } });
    const results = [{ target: 'balance/api with metrics', ...(await alternate(target(plain), target(counted))) }];
    printTable(results, 'the same service without metrics', '(target: ≥ 0.9× its req/s)');
    return results;
  } finally {
    plain.stop();
    counted.stop();
  }
}

async function startServer(target: 'bare' | 'pglite' | 'postgres', extra: string[] = []): Promise<{ url: string; apiKey?: string; jobApiKey?: string; jobId?: string; stop: () => void }> {
  // The service runs with `npm start`'s variables and node flags; the bare route as plain node.
  const start = target === 'bare' ? { env: {}, args: [] } : startCommand(process.cwd());
  const flags = start.args.filter((arg) => arg.startsWith('--'));
  const child: ChildProcess = spawn(process.execPath, [...flags, serverScript, target, ...extra], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...start.env } });
  const [line] = await new Promise<string[]>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (first) => resolve([first]));
    child.once('exit', (code) => reject(new Error(`the ${target} server exited with ${code}`)));
  });
  return { ...JSON.parse(line), stop: () => child.kill('SIGTERM') };
}

interface Endpoint {
  url: string;
  headers: Record<string, string>;
}

/** The baseline and the target in turns, each warmed up first: the median round of each, and the median of the rounds' ratios. */
async function alternate(baseline: Endpoint, target: Endpoint): Promise<Omit<Measurement, 'target'>> {
  await autocannon({ ...baseline, connections: CONNECTIONS, duration: 3 });
  await autocannon({ ...target, connections: CONNECTIONS, duration: 3 });
  const rounds: Array<{ bare: Run; measured: Run }> = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push({ bare: await load(baseline.url, baseline.headers), measured: await load(target.url, target.headers) });
  return {
    requestsPerSecond: median(rounds.map((r) => r.measured.requestsPerSecond)),
    p99Ms: median(rounds.map((r) => r.measured.p99Ms)),
    bareRequestsPerSecond: median(rounds.map((r) => r.bare.requestsPerSecond)),
    ratioToBare: median(rounds.map((r) => r.measured.requestsPerSecond / r.bare.requestsPerSecond)),
    p99ToBare: median(rounds.map((r) => r.measured.p99Ms / Math.max(r.bare.p99Ms, 1))),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

interface Run {
  requestsPerSecond: number;
  p99Ms: number;
}

/** One measured run; any answer other than 200 fails the bench rather than flattering it. */
async function load(url: string, headers: Record<string, string>): Promise<Run> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, workers: 1 });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99 };
}

function printTable(rows: Measurement[], baseline = 'the bare route', goal = '(target: ≥ 0.5× its req/s, p99 ≤ 3×)'): void {
  const lines = [
    ['target', 'req/s', 'p99 ms', 'baseline req/s', 'req/s vs baseline', 'p99 vs baseline'],
    ...rows.map((r) => [r.target, String(r.requestsPerSecond), String(r.p99Ms), String(r.bareRequestsPerSecond), r.ratioToBare.toFixed(3), `${r.p99ToBare.toFixed(1)}x`]),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(`\nAuthenticated reads, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s taking turns with ${baseline}, load generator in its own process; medians ${goal}`);
  for (const line of lines) console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBalanceBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
