/** The `llmstxt` command end to end, as a child process, against sites and a service on 127.0.0.1. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { parseLlmsTxt } from '../llms-txt/testing/llms-txt-parser.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf } from '../testing/jobs.ts';
import { startScriptSite, type ScriptSite } from '../testing/script-site.ts';
import { describeOnEachDatabase, freePort } from '../testing/service.ts';

const BIN = new URL('../../bin/llmstxt.mjs', import.meta.url).pathname;

function llmstxt(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The command on a terminal of its own (util-linux `script`), typing `input` into it; its screen, stdout and stderr as one. */
function onTerminal(args: string[], env: Record<string, string>, input: string): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (output.includes('[y/N]') && input) {
      child.stdin.end(input);
      input = '';
    }
  });
  // Without the carriage returns and the line editor's cursor moves.
  const screen = () => output.replaceAll('\r', '').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output: screen() })));
}

let docs: DocsSite;
let scripts: ScriptSite;
let work: string;
before(async () => {
  docs = await startDocsSite();
  scripts = await startScriptSite();
  work = mkdtempSync(join(tmpdir(), 'llmstxt-cli-'));
});
after(async () => {
  await docs.close();
  await scripts.close();
  rmSync(work, { recursive: true, force: true });
});

describe('llmstxt generate (on this machine)', () => {
  test('writes llms.txt and llms-full.txt, shows progress on stderr, and reports the files as JSON', async () => {
    const out = join(work, 'local');
    const run = await llmstxt(['generate', docs.origin, '--out', out, '--full', '--exclude', '/legal/', '--max-urls', '20']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Finding pages \d+/);
    const text = readFileSync(join(out, 'llms.txt'), 'utf8');
    const document = parseLlmsTxt(text);
    assert.equal(document.title, 'Acme Widgets');
    const urls = document.sections.flatMap((section) => section.links.map((link) => new URL(link.url).pathname));
    assert.ok(urls.includes('/docs/getting-started') && !urls.includes('/legal/privacy'), urls.join(' '));
    assert.match(readFileSync(join(out, 'llms-full.txt'), 'utf8'), /npm install -g acme-cli/);
    assert.match(run.stdout, new RegExp(`${join(out, 'llms.txt')} \\(${Buffer.byteLength(text).toLocaleString('en')} bytes, ${countTokens(text).toLocaleString('en')} tokens\\)`));

    const json = await llmstxt(['generate', docs.origin, '--out', join(work, 'json'), '--json']);
    assert.equal(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout);
    assert.deepEqual(result.files.map((f: { path: string }) => f.path), [join(work, 'json', 'llms.txt')]);
    assert.equal(json.stderr, '', '--json keeps stderr for errors');
  });

  test('--version, and --max-tokens keeping llms-full.txt within its budget', async () => {
    const version = await llmstxt(['--version']);
    assert.deepEqual([version.code, version.stdout.trim()], [0, `llmstxt ${JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version}`]);
    const out = join(work, 'budget');
    const run = await llmstxt(['generate', docs.origin, '--out', out, '--full', '--max-tokens', '150', '--quiet']);
    assert.equal(run.code, 0, run.stderr);
    const fullText = readFileSync(join(out, 'llms-full.txt'), 'utf8');
    assert.ok(countTokens(fullText) <= 150, `${countTokens(fullText)} tokens`);
    const withoutFull = await llmstxt(['generate', docs.origin, '--max-tokens', '150']);
    assert.deepEqual([withoutFull.code, withoutFull.stderr.trim()], [2, 'llmstxt: --max-tokens limits llms-full.txt: add --full']);
  });

  test('--explain writes, beside llms.txt, the rules that chose each listed page\'s title, description and section', async () => {
    const out = join(work, 'explain');
    const run = await llmstxt(['generate', docs.origin, '--out', out, '--explain', '--quiet']);
    assert.equal(run.code, 0, run.stderr);
    const text = readFileSync(join(out, 'llms.txt'), 'utf8');
    const explained = JSON.parse(readFileSync(join(out, 'llms-explain.json'), 'utf8'));
    const document = parseLlmsTxt(text);
    assert.equal(explained.site.name, document.title);
    // One entry per listed page, in the file's order, showing what the file shows.
    const lines = document.sections.flatMap((section) => section.links.map((link) => ({ url: link.url, title: link.title, section: section.name })));
    assert.deepEqual(explained.pages.map(({ url, title, section }: { url: string; title: string; section: string }) => ({ url, title, section })), lines);
    for (const { url, trace } of explained.pages) {
      assert.match(trace.title, /^title\.[a-z-]+$/, url);
      assert.match(trace.description, /^description\.[a-z-]+$/, url);
      assert.match(trace.section, /^section\.[a-z-]+$/, url);
    }
    assert.equal(explained.pages[0].trace.title, 'title.site-name', 'the home page is titled by the site name');
    assert.ok(explained.pages.some(({ trace }: { trace: { description: string } }) => trace.description === 'description.meta-description'));
    // The trace stays out of llms.txt: the file is the one a run without --explain writes.
    const plain = await llmstxt(['generate', docs.origin, '--out', join(work, 'plain'), '--quiet']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(readFileSync(join(work, 'plain', 'llms.txt'), 'utf8'), text);
    const remote = await llmstxt(['remote', 'generate', docs.origin, '--explain'], { LLMSTXT_API_KEY: 'unused', LLMSTXT_API_URL: 'http://127.0.0.1:1/api/v1' });
    assert.deepEqual([remote.code, remote.stderr.trim()], [2, 'llmstxt: --explain works with llmstxt generate (on this machine) only']);
  });

  test('an --out that is not a writable folder is refused before any page is fetched', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'not a folder');
    const closed = `http://127.0.0.1:${await freePort()}/`; // were it fetched, the exit code would be 3
    const run = await llmstxt(['generate', closed, '--out', file]);
    assert.deepEqual([run.code, run.stderr.trim()], [2, `llmstxt: --out ${file} is not a folder`]);
  });

  test('a site built by scripts fails with exit 3 and the hint to render it, --render auto renders it; a bad mode or a missing Chromium is refused with exit 2', async () => {
    const out = join(work, 'rendered');
    const unrendered = await llmstxt(['generate', `${scripts.origin}/`, '--out', out, '--quiet']);
    assert.deepEqual(
      [unrendered.code, unrendered.stderr.trim()],
      [3, `llmstxt: No readable pages at ${scripts.origin}/: its pages look built by JavaScript in the browser (a script bundle, an empty mount point, little text). Generate again with the option render "auto" to render them`],
    );
    assert.equal(existsSync(join(out, 'llms.txt')), false, 'no one-line llms.txt is written');
    const run = await llmstxt(['generate', `${scripts.origin}/`, '--out', out, '--render', 'auto', '--quiet']);
    assert.equal(run.code, 0, run.stderr);
    const paths = parseLlmsTxt(readFileSync(join(out, 'llms.txt'), 'utf8')).sections.flatMap((section) => section.links.map((link) => new URL(link.url).pathname));
    assert.deepEqual(paths.sort(), [...scripts.pagePaths].sort());
    const badMode = await llmstxt(['generate', `${scripts.origin}/`, '--render', 'sometimes']);
    assert.deepEqual([badMode.code, badMode.stderr.trim()], [2, 'llmstxt: --render must be never, auto or always, not sometimes']);
    const noChromium = await llmstxt(['generate', `${scripts.origin}/`, '--render', 'always'], { CHROMIUM_PATH: '/nonexistent/chromium' });
    assert.deepEqual(
      [noChromium.code, noChromium.stderr.trim()],
      [2, 'llmstxt: --render needs Chromium, not found at /nonexistent/chromium: install it (apt-get install chromium) or set CHROMIUM_PATH'],
    );
  });

  test('exit codes a script can rely on: 2 for a bad URL or option, 3 for a site that cannot be read', async () => {
    const badUrl = await llmstxt(['generate', 'ftp://example.com/', '--out', join(work, 'bad')]);
    assert.deepEqual([badUrl.code, badUrl.stderr.trim()], [2, 'llmstxt: not an http(s) URL: ftp://example.com/']);
    const badPattern = await llmstxt(['generate', docs.origin, '--exclude', '/docs/[a']);
    assert.deepEqual([badPattern.code, badPattern.stderr.trim()], [2, 'llmstxt: --exclude[0] "/docs/[a" is not a valid glob pattern']);
    const badOption = await llmstxt(['generate', docs.origin, '--max-urls', 'many']);
    assert.equal(badOption.code, 2);
    const closed = `http://127.0.0.1:${await freePort()}/`;
    const unreachable = await llmstxt(['generate', closed, '--out', join(work, 'none'), '--json']);
    assert.equal(unreachable.code, 3);
    assert.match(JSON.parse(unreachable.stdout).error, /^Could not fetch http:\/\/127\.0\.0\.1:\d+\/: Connection refused/);
    assert.equal(existsSync(join(work, 'none', 'llms.txt')), false);
  });
});

describeOnEachDatabase(
  'llmstxt remote, balance and sites (on a service)',
  (service) => {
    test('runs the job on the service with the account key, writes its files, and reads balance and sites', async () => {
      const { id, apiKey } = await service().createAccount();
      const env = { LLMSTXT_API_KEY: apiKey, LLMSTXT_API_URL: service().baseUrl };
      const out = join(work, `remote-${id}`);
      const run = await llmstxt(['remote', 'generate', docs.origin, '--out', out, '--json', '--yes'], env);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /^This job reserves 5 credits \(simple, up to 50 pages\)\. The credits are reserved at the start; /);
      const result = JSON.parse(run.stdout);
      const job = (await service().request('GET', `/api/v1/generate/${result.jobId}`, { token: apiKey })).body;
      assert.equal(readFileSync(join(out, 'llms.txt'), 'utf8'), await (await fetch(job.fileUrl)).text());
      assert.deepEqual(result.files[0].tokens, job.files.llmsTxt.tokens);
      // What it spent, net of the refund, and the pages it listed.
      assert.deepEqual([result.creditsUsed, result.pages], [1, docs.pagePaths.length]);
      assert.equal((await ledgerOf(service(), id)).balance, 20 - 1);

      const balance = await llmstxt(['balance', '--json'], env);
      assert.equal(balance.code, 0, balance.stderr);
      assert.equal(JSON.parse(balance.stdout).balance, (await ledgerOf(service(), id)).balance);
      const sites = await llmstxt(['sites'], env);
      assert.equal(sites.code, 0, sites.stderr);
      assert.match(sites.stdout, new RegExp(`^completed\\s+${docs.origin}/`, 'm'));
    });

    test('remote generate prints the cost first and spends nothing unless agreed: --yes, or yes on a terminal', async () => {
      const { id, apiKey } = await service().createAccount();
      const env = { LLMSTXT_API_KEY: apiKey, LLMSTXT_API_URL: service().baseUrl };
      const args = ['remote', 'generate', docs.origin, '--out', join(work, `asked-${id}`), '--method', 'enhanced', '--max-urls', '20'];
      const unasked = await llmstxt(args, env);
      assert.equal(unasked.code, 2);
      assert.equal(
        unasked.stderr,
        [
          'This job reserves 2 credits (simple, up to 20 pages). The credits are reserved at the start; when the job ends it keeps a credit per 10 pages listed and the rest come back (all of them if it fails).',
          "Runs as simple, at simple's price: enhanced needs an AI provider, and none is configured (set LLM_PROVIDER).",
          'llmstxt: this job reserves 2 credits: add --yes to start it without being asked',
          '',
        ].join('\n'),
      );
      const declined = await onTerminal(args, env, 'n\n');
      assert.equal(declined.code, 6, declined.output);
      assert.match(declined.output, /Spend up to 2 credits\? \[y\/N\] n\s+llmstxt: not started; nothing was charged/);
      assert.deepEqual((await ledgerOf(service(), id)).rows.map((row) => row.type), ['purchase'], 'no usage, no refund');

      const agreed = await onTerminal(args, env, 'y\n');
      assert.equal(agreed.code, 0, agreed.output);
      assert.match(agreed.output, new RegExp(`${docs.origin}/: ${docs.pagePaths.length} pages, 1 credit spent, wrote`));
      assert.equal((await ledgerOf(service(), id)).balance, 20 - 1);
    });

    test('--link-markdown links llms.txt to the markdown copies the service hosts', async () => {
      const { id, apiKey } = await service().createAccount();
      const out = join(work, `linked-${id}`);
      const run = await llmstxt(['remote', 'generate', docs.origin, '--out', out, '--link-markdown', '--json', '--yes'], { LLMSTXT_API_KEY: apiKey, LLMSTXT_API_URL: service().baseUrl });
      assert.equal(run.code, 0, run.stderr);
      const links = parseLlmsTxt(readFileSync(join(out, 'llms.txt'), 'utf8')).sections.flatMap((section) => section.links);
      assert.equal(links.length, docs.pagePaths.length);
      for (const link of links) assert.match(link.url, new RegExp(`^${service().baseUrl}/api/v1/file/[\\w-]+/pages/.+\\.md$`));
    });

    test('exit 2 without a key, 4 when the service refuses, 5 when it cannot be reached', async () => {
      const missing = await llmstxt(['balance'], { LLMSTXT_API_KEY: '' });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /^llmstxt: set LLMSTXT_API_KEY/);
      const refused = await llmstxt(['balance'], { LLMSTXT_API_KEY: 'llmstxt_not-a-real-key', LLMSTXT_API_URL: service().baseUrl });
      assert.deepEqual([refused.code, refused.stderr.trim()], [4, `llmstxt: ${service().baseUrl} answered 401: Unauthorized`]);
      const nowhere = `http://127.0.0.1:${await freePort()}`;
      const unreachable = await llmstxt(['sites'], { LLMSTXT_API_KEY: 'llmstxt_x', LLMSTXT_API_URL: nowhere });
      assert.equal(unreachable.code, 5);
      assert.match(unreachable.stderr, new RegExp(`^llmstxt: cannot reach the service at ${nowhere}`));
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
