#!/usr/bin/env node
// The `llmstxt` command: runs src/cli/main.ts on Node 24 or later (TypeScript by type stripping).
// On an older Node it starts the project's own Node (the npm package `node`) instead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../src/cli/main.ts', import.meta.url);
const pinned = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));

if (Number(process.versions.node.split('.')[0]) >= 24) {
  const { runCli } = await import(entry.href);
  process.exitCode = await runCli(process.argv.slice(2));
} else if (existsSync(pinned)) {
  const child = spawn(pinned, [fileURLToPath(entry), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
} else {
  console.error(`llmstxt: needs Node 24 or later (this is ${process.version}); run \`npm install\` in ${fileURLToPath(new URL('..', import.meta.url))} to get it`);
  process.exit(1);
}
