// Crawl benchmark: our link crawler against `wget -r` over the PostgreSQL 15 manual
// (~1,170 static HTML pages from Debian's postgresql-doc-15), served by nginx on
// 127.0.0.1. Each crawler runs in its own process so peak RSS is its own.
// Target: >= 400 pages/s and peak RSS < 150 MB for the crawler.
// Run alone: node bench/crawl.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensurePackages, median, runWget, startNginx, type Measurement } from './static-site.ts';

export type { Measurement };

const MAX_URLS = 2000;
// 8 measured best on a 2-core machine: the crawler is CPU-bound (HTML tokenizing), and more
// connections only add socket and scheduling overhead (more were slower: bench/HISTORY.md).
const CONCURRENCY = Number(process.env.CRAWL_BENCH_CONCURRENCY ?? 8);
// Each tool runs this many times and the median run (by pages/s) is reported: shared
// machines are noisy, and a single run can be off by a factor of two.
const RUNS = Number(process.env.CRAWL_BENCH_RUNS ?? 3);

export async function runCrawlBench(): Promise<{ crawler: Measurement; wget: Measurement }> {
  ensurePackages();
  const work = mkdtempSync(join(tmpdir(), 'crawl-bench-'));
  const nginx = await startNginx(work);
  try {
    const url = `http://127.0.0.1:${nginx.port}/index.html`;
    const crawlerRuns: Measurement[] = [];
    const wgetRuns: Measurement[] = [];
    for (let run = 0; run < RUNS; run++) {
      crawlerRuns.push(await runCrawlerChild(url));
      wgetRuns.push(runWget(url, work));
    }
    const crawler = median(crawlerRuns);
    const wget = median(wgetRuns);
    printTable(crawler, wget);
    return { crawler, wget };
  } finally {
    nginx.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

async function runCrawlerChild(url: string): Promise<Measurement> {
  const script = fileURLToPath(new URL('./crawl-child.ts', import.meta.url));
  const child = spawn(process.execPath, [script, url, String(MAX_URLS), String(CONCURRENCY)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`crawler child exited with ${code}`);
  const { pages, seconds, peakRssMb } = JSON.parse(out.trim().split('\n').at(-1)!) as Measurement;
  return { pages, seconds, pagesPerSecond: pages / seconds, peakRssMb };
}

function printTable(crawler: Measurement, wget: Measurement): void {
  const row = (name: string, m: Measurement) =>
    `${name.padEnd(10)}${String(m.pages).padStart(7)}${m.seconds.toFixed(2).padStart(10)}${m.pagesPerSecond.toFixed(0).padStart(10)}${m.peakRssMb.toFixed(1).padStart(14)}`;
  console.log(`${'tool'.padEnd(10)}${'pages'.padStart(7)}${'seconds'.padStart(10)}${'pages/s'.padStart(10)}${'peak RSS MB'.padStart(14)}`);
  console.log(row(`crawler`, crawler));
  console.log(row('wget', wget));
  console.log(
    `crawler/wget: speed x${(crawler.pagesPerSecond / wget.pagesPerSecond).toFixed(2)}, RSS x${(crawler.peakRssMb / wget.peakRssMb).toFixed(2)}` +
      ` (median of ${RUNS} runs, concurrency ${CONCURRENCY}; targets: >= 400 pages/s, < 150 MB)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runCrawlBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
