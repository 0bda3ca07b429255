// Runs every *.test.ts under src/ with Node's own test runner, on the Node that runs
// this script (npm scripts run the project's pinned Node from node_modules/.bin), which strips
// the TypeScript types itself.
// Usage: npm test [-- path-fragment ...] to run only files whose path contains a fragment.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ensureChromium, ensureDashboardBuilt } from './test-prerequisites.mjs';

function findTests(dir) {
  let found = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found = found.concat(findTests(path));
    else if (entry.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const filters = process.argv.slice(2);
const files = findTests('src')
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
console.log(`Node ${process.version}: ${files.length} test file${files.length === 1 ? '' : 's'}`);

// The browser suites need Chromium and the dashboard's build: provided before any suite starts.
if (files.some((file) => readFileSync(file, 'utf8').includes('testing/browser'))) {
  ensureChromium();
  ensureDashboardBuilt();
}

// A fault in one suite costs that suite, not the run: a test or suite still running after 15
// minutes fails, and a file whose tests are done exits even if something it started is still open
// (once, a service that could not listen kept its file alive, and CI, for 87 minutes).
const result = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-reporter=spec', '--test-timeout=900000', '--test-force-exit', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
