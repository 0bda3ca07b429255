// API benchmark: authenticated reads (GET /api/v1/credits/balance/api, GET /api/v1/generate/{jobId})
// on PGlite and on PostgreSQL, each against a bare Fastify route measured just before it as the
// baseline. Every server runs in a process of its own (bench/api-server.ts); autocannon runs in
// this one. 50 connections, BENCH_API_SECONDS (default 10) each, after a 3 s warm-up.
// Run alone: node bench/balance.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { startCommand } from './generate.ts';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const serverScript = new URL('./api-server.ts', import.meta.url).pathname;

export interface Measurement {
  target: string;
  requestsPerSecond: number;
  p99Ms: number;
  /** the bare route's requests/s, measured just before */
  bareRequestsPerSecond: number;
  /** requests/s as a share of the bare route's */
  ratioToBare: number;
  /** p99 latency as a multiple of the bare route's */
  p99ToBare: number;
}

export async function runBalanceBench(): Promise<Measurement[]> {
  // The machine's speed drifts over a run: each target is measured right after the bare route,
  // and its ratio is to that measurement.
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
          const bare = await load(`${bareServer.url}/bare`, {});
          const measured = await load(`${server.url}${path}`, { authorization: `Bearer ${apiKey}` });
          results.push({
            target: `${name} on ${kind}`,
            ...measured,
            bareRequestsPerSecond: bare.requestsPerSecond,
            ratioToBare: measured.requestsPerSecond / bare.requestsPerSecond,
            p99ToBare: measured.p99Ms / Math.max(bare.p99Ms, 1),
          });
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

async function startServer(target: 'bare' | 'pglite' | 'postgres'): Promise<{ url: string; apiKey?: string; jobApiKey?: string; jobId?: string; stop: () => void }> {
  // The service runs with `npm start`'s variables and node flags; the bare route as plain node.
  const start = target === 'bare' ? { env: {}, args: [] } : startCommand(process.cwd());
  const flags = start.args.filter((arg) => arg.startsWith('--'));
  const child: ChildProcess = spawn(process.execPath, [...flags, serverScript, target], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...start.env } });
  const [line] = await new Promise<string[]>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (first) => resolve([first]));
    child.once('exit', (code) => reject(new Error(`the ${target} server exited with ${code}`)));
  });
  return { ...JSON.parse(line), stop: () => child.kill('SIGTERM') };
}

/** A warm-up, then the measured run; any answer other than 200 fails the bench rather than flattering it. */
async function load(url: string, headers: Record<string, string>): Promise<{ requestsPerSecond: number; p99Ms: number }> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 3 });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, workers: 1 });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { requestsPerSecond: Math.round(result.requests.average), p99Ms: result.latency.p99 };
}

function printTable(rows: Measurement[]): void {
  const lines = [
    ['target', 'req/s', 'p99 ms', 'bare req/s', 'req/s vs bare', 'p99 vs bare'],
    ...rows.map((r) => [r.target, String(r.requestsPerSecond), String(r.p99Ms), String(r.bareRequestsPerSecond), r.ratioToBare.toFixed(3), `${r.p99ToBare.toFixed(1)}x`]),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(`\nAuthenticated reads, ${CONNECTIONS} connections, ${SECONDS} s each, load generator in its own process, each after the bare route (target: ≥ 0.5× its req/s, p99 ≤ 3×)`);
  for (const line of lines) console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBalanceBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
