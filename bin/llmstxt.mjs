#!/usr/bin/env node
// The `llmstxt` command. In the repository it runs src/cli/main.ts (TypeScript by type stripping);
// in the installed package (scripts/pack-cli.ts) the bundle dist/cli.mjs. Either needs Node 24 or
// later: on an older Node it starts the Node 24 of the npm package `node` where one is installed
// (the repository's devDependency; beside the package, `npm install node@24`), and says so where none is.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/cli.mjs', import.meta.url);
const entry = existsSync(bundle) ? bundle : new URL('../src/cli/main.ts', import.meta.url);

function pinnedNode() {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('node/package.json')), 'bin', 'node');
  } catch {
    return null;
  }
}

if (Number(process.versions.node.split('.')[0]) >= 24) {
  const { runCli } = await import(entry.href);
  process.exitCode = await runCli(process.argv.slice(2));
} else {
  const node = pinnedNode();
  if (!node || !existsSync(node)) {
    const args = process.argv.slice(2);
    if (args.includes('--version') || args.includes('-v')) {
      console.log(`llmstxt ${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}`);
      process.exit(0);
    }
    console.error(`llmstxt: needs Node 24 or later (this is ${process.version}): install it, or add Node 24 beside llmstxt with \`npm install node@24\``);
    process.exit(1);
  }
  const child = spawn(node, [fileURLToPath(entry), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
}
