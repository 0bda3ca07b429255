// Runs one crawl-mode discovery in its own process so its peak RSS is measured alone.
// Usage: node bench/crawl-child.ts <start-url> [maxUrls] [concurrency]
// Prints one JSON line: { pages, seconds, peakRssMb }.
import { discover } from '../src/crawl/index.ts';

const [startUrl, maxUrls = '2000', concurrency = '8'] = process.argv.slice(2);
if (!startUrl) {
  console.error('usage: crawl-child.ts <start-url> [maxUrls] [concurrency]');
  process.exit(2);
}

const started = process.hrtime.bigint();
const result = await discover(
  startUrl,
  { mode: 'crawl', maxUrls: Number(maxUrls) },
  { allowPrivate: true, limits: { concurrencyPerHost: Number(concurrency), jobTimeoutMs: 600_000 } },
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
// maxRSS is in kilobytes.
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ pages: result.urls.length, seconds, peakRssMb, warnings: result.warnings.length }));
