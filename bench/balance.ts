// API benchmark: authenticated reads (GET /api/v1/credits/balance/api, GET /api/v1/generate/{jobId})
// on PGlite and on PostgreSQL, against a bare Fastify route measured in the same run as the
// baseline. Every server runs in a process of its own (bench/api-server.ts); autocannon runs in
// this one. 50 connections, BENCH_API_SECONDS (default 10) each, after a 1 s warm-up.
// Run alone: node bench/balance.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const serverScript = new URL('./api-server.ts', import.meta.url).pathname;

export interface Measurement {
  target: string;
  requestsPerSecond: number;
  p99Ms: number;
  /** requests/s as a share of the bare route's */
  ratioToBare: number;
  /** p99 latency as a multiple of the bare route's */
  p99ToBare: number;
}

export async function runBalanceBench(): Promise<Measurement[]> {
  const bareServer = await startServer('bare');
  let bare: { requestsPerSecond: number; p99Ms: number };
  try {
    bare = await load(`${bareServer.url}/bare`, {});
  } finally {
    bareServer.stop();
  }
  const results: Measurement[] = [{ target: 'bare Fastify route', ...bare, ratioToBare: 1, p99ToBare: 1 }];
  for (const kind of ['pglite', 'postgres'] as const) {
    const server = await startServer(kind);
    try {
      for (const [name, path, apiKey] of [
        ['balance/api', '/api/v1/credits/balance/api', server.apiKey],
        ['generate/{jobId}', `/api/v1/generate/${server.jobId}`, server.jobApiKey],
      ]) {
        const measured = await load(`${server.url}${path}`, { authorization: `Bearer ${apiKey}` });
        results.push({
          target: `${name} on ${kind}`,
          ...measured,
          ratioToBare: measured.requestsPerSecond / bare.requestsPerSecond,
          p99ToBare: measured.p99Ms / Math.max(bare.p99Ms, 1),
        });
      }
    } finally {
      server.stop();
    }
  }
  printTable(results);
  return results;
}

async function startServer(target: 'bare' | 'pglite' | 'postgres'): Promise<{ url: string; apiKey?: string; jobApiKey?: string; jobId?: string; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, [serverScript, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await new Promise<string[]>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (first) => resolve([first]));
    child.once('exit', (code) => reject(new Error(`the ${target} server exited with ${code}`)));
  });
  return { ...JSON.parse(line), stop: () => child.kill('SIGTERM') };
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
    ['target', 'req/s', 'p99 ms', 'req/s vs bare', 'p99 vs bare'],
    ...rows.map((r) => [r.target, String(r.requestsPerSecond), String(r.p99Ms), r.ratioToBare.toFixed(3), `${r.p99ToBare.toFixed(1)}x`]),
  ];
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log(`\nAuthenticated reads, ${CONNECTIONS} connections, ${SECONDS} s each, load generator in its own process`);
  for (const line of lines) console.log(line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBalanceBench().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
