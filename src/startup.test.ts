/**
 * The service as `npm start` starts it (bin/service.mjs, on the embedded database): it keeps a
 * compile cache, and loads no SDK its configuration does not use (docs/decisions/process-memory.md).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from './testing/service.ts';

/** Packages the default configuration (no LLM, local payments, no SMTP, no Redis) must not load. */
const UNUSED_BY_DEFAULT = ['stripe', 'ai', '@ai-sdk/anthropic', '@ai-sdk/openai-compatible', 'nodemailer', 'ioredis'];

/** A module hook that writes down every package the process resolves a file of. */
const RECORDER = `
import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    const inPackage = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url);
    if (inPackage) appendFileSync(process.env.LOADED_PACKAGES, inPackage[1] + '\\n');
    return resolved;
  },
});
`;

describe('the service started by npm start', () => {
  let work: string;
  let loaded: Set<string>;
  /** the files of each page worker bundle while the service serves */
  let bundlesServing: string[][];
  const pageWorkerBundles = (folder: string) => readdirSync(folder).filter((name) => name.startsWith('llmstxt-page-worker-'));

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'startup-'));
    writeFileSync(join(work, 'recorder.mjs'), RECORDER);
    const port = await freePort();
    const service = spawn(process.execPath, ['--import', join(work, 'recorder.mjs'), 'bin/service.mjs', 'serve'], {
      env: {
        ...withoutSettings(process.env, ['NODE_COMPILE_CACHE', 'DATABASE_URL', 'LLM_PROVIDER', 'PAYMENT_PROVIDER', 'STRIPE_SECRET_KEY', 'SMTP_URL', 'REDIS_URL']),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: join(work, 'data'),
        LOG_LEVEL: 'error',
        // The OS temp folder, where the cache goes by default, is the test's own.
        TMPDIR: work,
        LOADED_PACKAGES: join(work, 'loaded.txt'),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    try {
      await untilReady(`http://127.0.0.1:${port}/api/v1/ready`);
      bundlesServing = pageWorkerBundles(work).map((name) => readdirSync(join(work, name)));
    } finally {
      service.kill('SIGTERM');
      await new Promise((resolve) => service.once('exit', resolve));
    }
    loaded = new Set(readFileSync(join(work, 'loaded.txt'), 'utf8').split('\n').filter(Boolean));
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('loads the packages it serves with, and none of the SDKs its configuration does not use', () => {
    for (const used of ['fastify', '@electric-sql/pglite', 'pg-boss']) assert.ok(loaded.has(used), `${used} is loaded`);
    assert.deepEqual(UNUSED_BY_DEFAULT.filter((name) => loaded.has(name)), []);
  });

  it('runs its page threads from a bundle of their code made at start, and deletes it at exit', () => {
    assert.equal(bundlesServing.length, 1);
    assert.ok(bundlesServing[0].includes('page-worker.mjs'), bundlesServing[0].join(' '));
    assert.deepEqual(pageWorkerBundles(work), []);
  });

  it('leaves its compiled modules in the compile cache for the next start', () => {
    const cached = readdirSync(join(work, 'node-compile-cache'), { recursive: true });
    assert.ok(cached.length > 500, `${cached.length} entries in the compile cache`);
  });
});

describe('the start commands', () => {
  // npm start and npm run worker, the image, and compose's API and worker processes.
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const compose = readFileSync('compose.yaml', 'utf8');
  const exec = (line: string) => JSON.parse(line) as string[];
  const npmScript = (name: string) => {
    const words = scripts[name].split(/\s+/);
    const settings = words.filter((word) => /^[A-Z_]+=/.test(word));
    return { settings, argv: words.slice(settings.length) };
  };
  const nodeFlags = (argv: string[]) => argv.slice(1, argv.indexOf('bin/service.mjs'));

  it('run the service with the same node flags and memory settings everywhere', () => {
    const npmCommands = [npmScript('start'), npmScript('worker')];
    const imageCommand = exec(/^CMD (\[.*\])$/m.exec(dockerfile)![1]);
    const composeCommands = [...compose.matchAll(/command: (\["node".*\])$/gm)].map((match) => exec(match[1]));
    assert.equal(composeCommands.length, 2);
    const flags = nodeFlags(npmCommands[0].argv);
    assert.ok(flags.includes('--heap-growing-percent=30'), flags.join(' '));
    for (const argv of [npmCommands[1].argv, imageCommand, ...composeCommands]) assert.deepEqual(nodeFlags(argv), flags);
    const imageSettings = [...dockerfile.matchAll(/^ENV (MALLOC_\w+=\S+)$/gm)].map((match) => match[1]);
    assert.deepEqual(npmCommands[0].settings, ['MALLOC_MMAP_THRESHOLD_=131072']);
    assert.deepEqual(npmCommands[1].settings, npmCommands[0].settings);
    assert.deepEqual(imageSettings, npmCommands[0].settings);
  });
});

function withoutSettings(env: NodeJS.ProcessEnv, names: string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
}

async function untilReady(url: string): Promise<void> {
  for (let waited = 0; ; waited += 200) {
    const ready = await fetch(url).then((response) => response.ok, () => false);
    if (ready) return;
    assert.ok(waited < 60_000, 'the service did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
