/**
 * The CLI's package as another project gets it: packed (scripts/pack-cli.ts), installed from the
 * tarball with the `npm` on the PATH (Node 20 on the project's machines), offline, then run and
 * imported. The package's dependencies come from this repository's node_modules, as an npm cache
 * would hold them.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { testDatabaseKinds } from '../testing/databases.ts';
import { startTestService, type TestService } from '../testing/service.ts';

const root = new URL('../../', import.meta.url).pathname;
const repositoryModules = join(root, 'node_modules');
/** The machine's PATH without this repository's node_modules/.bin (which npm scripts put first, with its Node 24). */
const machinePath = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes(join(root, 'node_modules'))).join(delimiter);
const execute = promisify(execFile);
const run = (file: string, args: string[], options: { cwd: string }) => execute(file, args, { ...options, env: { ...process.env, PATH: machinePath } });

/** A package and what it depends on, as folder names under node_modules (platform packages absent here are left out). */
function dependencyClosure(names: string[]): Set<string> {
  const found = new Set<string>();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (found.has(name) || !existsSync(join(repositoryModules, name))) continue;
    found.add(name);
    const manifest = JSON.parse(readFileSync(join(repositoryModules, name, 'package.json'), 'utf8'));
    queue.push(...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }));
  }
  return found;
}

let work: string;
let docs: DocsSite;
let service: TestService;
before(async () => {
  work = mkdtempSync(join(tmpdir(), 'llmstxt-package-'));
  docs = await startDocsSite();
  service = await startTestService(testDatabaseKinds()[0], { workers: false });
});
after(async () => {
  await docs.close();
  await service.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the llmstxt package', () => {
  test('installs from its tarball into another project without a warning, runs `llmstxt`, and its client imports', async () => {
    const packed = await run(process.execPath, [join(root, 'scripts/pack-cli.ts'), join(work, 'out')], { cwd: root });
    const tarball = packed.stdout.trim().split('\n').at(-1)!;
    const manifest = JSON.parse(readFileSync(join(root, 'artifacts/llmstxt-package/package.json'), 'utf8'));

    const project = join(work, 'project');
    for (const name of dependencyClosure(Object.keys(manifest.dependencies))) {
      cpSync(join(repositoryModules, name), join(project, 'node_modules', name), { recursive: true });
    }
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
    assert.doesNotMatch(install.stdout + install.stderr, /warn|EBADENGINE/i);

    // The PATH's Node (20 here) runs the command's own answers; the work runs on Node 24.
    const bin = join(project, 'node_modules/.bin/llmstxt');
    const version = await run(bin, ['--version'], { cwd: project });
    assert.equal(version.stdout, `llmstxt ${manifest.version}\n`);
    const generated = await run(process.execPath, [bin, 'generate', docs.origin, '--out', join(work, 'site'), '--full', '--max-urls', '5', '--quiet'], { cwd: project });
    assert.match(generated.stdout, /: 5 pages, wrote/);
    assert.match(readFileSync(join(work, 'site/llms.txt'), 'utf8'), /^# /);
    assert.ok(existsSync(join(work, 'site/llms-full.txt')));

    const script = "import { createApiClient } from 'llmstxt/client'; const { data } = await createApiClient({ baseUrl: process.argv[1] }).GET('/api/v1/credits/packages'); console.log(data.packages.length);";
    const imported = await run('node', ['--input-type=module', '-e', script, service.baseUrl], { cwd: project });
    assert.ok(Number(imported.stdout) > 0, imported.stdout);

    // Its types, for a TypeScript project: a wrong path is a type error.
    writeFileSync(
      join(project, 'check.ts'),
      "import { createApiClient } from 'llmstxt/client';\nconst api = createApiClient({ baseUrl: 'http://localhost:3000' });\nexport const ok = api.GET('/api/v1/credits/packages');\n// @ts-expect-error not a route\nexport const wrong = api.GET('/api/v1/no-such-route');\n",
    );
    await run(join(repositoryModules, '.bin/tsc'), ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'check.ts'], { cwd: project });
  });
});
