// Collects one site's pages as a generation job does, in its own process so its memory is its own.
// Usage: node bench/render-child.ts <start-url> <never|auto|always> <maxUrls>
// Prints one JSON line: { pages, rendered, seconds, peakRssMb (this process), peakTreeRssMb (with Chromium's processes) }.
import { readdirSync, readFileSync } from 'node:fs';
import { renderSettings } from '../src/config.ts';
import { BrowserPool, type RenderMode } from '../src/crawl/index.ts';
import { createPagePool, pageReader } from '../src/generation/page-pool.ts';
import { collectPages } from '../src/generation/page-collection.ts';

const [startUrl, mode = 'never', maxUrls = '100'] = process.argv.slice(2);

/** RSS of this process and all its descendants, in MB (shared pages counted in each: an upper bound). */
function treeRssMb(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      rss.set(Number(entry), Number(readFileSync(`/proc/${entry}/statm`, 'utf8').split(' ')[1]) * 4096);
    } catch {
      // The process ended meanwhile.
    }
  }
  const inTree = (pid: number): boolean => pid === process.pid || (parents.has(pid) && pid > 1 && inTree(parents.get(pid)!));
  let total = 0;
  for (const [pid, bytes] of rss) if (inTree(pid)) total += bytes;
  return total / 1024 / 1024;
}

let peakTree = 0;
const sampler = setInterval(() => (peakTree = Math.max(peakTree, treeRssMb())), 100);
const renderer = mode === 'never' ? undefined : new BrowserPool(renderSettings(process.env));
const reader = createPagePool();
const started = process.hrtime.bigint();
const collected = collectPages(startUrl, {
  maxUrls: Number(maxUrls),
  signal: new AbortController().signal,
  paths: { includePaths: [], excludePaths: [] },
  crawl: { allowPrivate: true, limits: { jobTimeoutMs: 600_000 } },
  read: pageReader(reader, { extractsContent: false }),
  render: { mode: mode as RenderMode, pool: renderer },
});
let pages = 0;
for await (const page of collected.pages) {
  await page.reading;
  pages++;
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
clearInterval(sampler);
peakTree = Math.max(peakTree, treeRssMb());
await renderer?.close();
await reader.close();
console.log(JSON.stringify({ pages, rendered: collected.rendering.rendered, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024, peakTreeRssMb: peakTree }));
