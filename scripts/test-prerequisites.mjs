// What `npm test` needs beyond npm packages, provided before any suite starts:
// Debian's Chromium for the browser suites and the dashboard's build. Where the machine cannot
// provide one (not root, no apt-get, no package source), stop with one message naming the fix.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DASHBOARD = fileURLToPath(new URL('../web/dist/index.html', import.meta.url));

function say(line) {
  console.log(`[npm test] ${line}`);
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  return result.status === 0;
}

/** Installs Debian's `chromium` when it is missing; returns the reason when it cannot. */
function installChromium() {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return 'installing packages needs root';
  if (!existsSync('/usr/bin/apt-get')) return 'this machine has no apt-get';
  say(`Chromium not found at ${CHROMIUM}: installing Debian's chromium (apt-get install chromium)…`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (!run('apt-get', ['update', '-qq'], env)) return 'apt-get update failed (no package source reachable?)';
  if (!run('apt-get', ['install', '-y', '-qq', 'chromium'], env)) return 'apt-get install chromium failed';
  if (!existsSync(CHROMIUM)) return `apt-get installed chromium but ${CHROMIUM} is still missing`;
  return null;
}

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const failure = installChromium();
  if (failure === null) return;
  console.error(
    `[npm test] The browser tests need Chromium at ${CHROMIUM}, and ${failure}.\n` +
      `[npm test] Run \`sudo apt-get install -y chromium\` (or set CHROMIUM_PATH to a Chromium binary), then \`npm test\` again.`,
  );
  process.exit(1);
}

export function ensureDashboardBuilt() {
  if (existsSync(DASHBOARD)) return;
  say('building the web dashboard (npm run build:web)…');
  if (!run(process.execPath, [fileURLToPath(new URL('./build-web.mjs', import.meta.url))])) {
    console.error('[npm test] The dashboard build failed; run `npm run build:web` to see why.');
    process.exit(1);
  }
}
