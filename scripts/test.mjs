// Runs every *.test.ts under src/ with Node's own test runner, on the Node that runs
// this script (npm scripts run the project's pinned Node from node_modules/.bin), which strips
// the TypeScript types itself.
// Usage: npm test [-- path-fragment ...] to run only files whose path contains a fragment.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
// minutes fails. A file kept alive by something it started (once, a service that could not
// listen, for 87 minutes of CI) is caught by the whole run's limit: the run is stopped and fails.
// Not `--test-force-exit`: it drops tests' verdicts from the report, and exits 0 with fewer tests
// than ran, failed ones included (nodejs/node#64833; seen here: 25 of 34 tests reported).
const RUN_LIMIT_MS = 50 * 60_000;
// Each test file runs in a process of its own, and many start services: Node's compile cache
// keeps what one compiled for the next (a service's modules loaded in 1.1 s instead of 1.6 s on
// a 2-core machine). A service started by `npm start` has its own (see bin/service.mjs).
const compileCache = process.env.NODE_COMPILE_CACHE ?? resolve('node_modules', '.cache', 'node-compile-cache');
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', '--test-timeout=900000', ...files], {
  env: { ...process.env, NODE_COMPILE_CACHE: compileCache },
  stdio: 'inherit',
  timeout: RUN_LIMIT_MS,
  killSignal: 'SIGKILL',
});
if (result.error?.code === 'ETIMEDOUT') console.error(`npm test: stopped after ${RUN_LIMIT_MS / 60_000} minutes, a suite still running`);
process.exit(result.status ?? 1);
