// `npm run bench`: every benchmark, each against a baseline measured in the same run.
// One benchmark alone: `npm run bench -- crawl` (names: balance, metrics, pickup, crawl, generate, quality, render).
// The soak under faults and the isolation attacks run only when named: `npm run bench -- soak`,
// `npm run bench -- isolation` (a few minutes each).
// Flags (`--update`) go to the benchmarks that take them: `npm run bench -- quality --update`.
import { runBalanceBench, runMetricsBench } from './balance.ts';
import { runCrawlBench } from './crawl.ts';
import { runGenerateBench } from './generate.ts';
import { runIsolationBench } from './isolation.ts';
import { runPickupBench } from './pickup.ts';
import { runQualityBench } from './quality.ts';
import { runRenderBench } from './render.ts';
import { runSoakBench } from './soak.ts';

const args = process.argv.slice(2);
const wanted = new Set(args.filter((arg) => !arg.startsWith('--')));
const include = (name: string) => wanted.size === 0 || wanted.has(name);

if (include('balance')) {
  console.log('\n== Authenticated reads (balance, job status) against a bare Fastify route ==');
  await runBalanceBench();
}
if (include('metrics')) {
  console.log('\n== The metrics on the hot path: balance reads with and without them ==');
  await runMetricsBench();
}
if (include('pickup')) {
  console.log('\n== Job pickup on an idle worker (PGlite, PostgreSQL) ==');
  await runPickupBench();
}
if (include('crawl')) {
  console.log('\n== Crawl-mode discovery of the PostgreSQL 15 manual against wget -r ==');
  await runCrawlBench();
}
if (include('generate')) {
  console.log('\n== End-to-end generation of the PostgreSQL 15 manual ==');
  await runGenerateBench();
}
if (include('quality')) {
  console.log('\n== llms.txt quality on the corpus sites and Debian-packaged documentation (simple, maxUrls 200) ==');
  await runQualityBench(args);
}
if (include('render')) {
  console.log('\n== A 100-page site rendered in Chromium beside the same pages fetched as HTML ==');
  await runRenderBench();
}
if (wanted.has('soak')) {
  console.log('\n== Soak: 2 API + 2 worker processes on PostgreSQL, workers killed and frozen ==');
  await runSoakBench();
}
if (wanted.has('isolation')) {
  console.log("\n== Isolation: eight attacks by one account against /health and another account's work ==");
  await runIsolationBench();
}
