// The installable package of the CLI and the typed client (`npm run pack:cli -- <folder>`): the
// repository is the service, with the service's dependencies; this package is what another
// project installs. Its JavaScript is bundled (Node strips no types under node_modules, and the
// bundle carries dependencies whose `engines` ask for Node 22 or later, which npm warns about on
// Node 20), so it depends only on `piscina` (the page threads), `openapi-fetch` (the client's
// types), `robots-parser` (loaded with require, which a bundle does not follow) and
// `playwright-core` (--render; it finds its own files from its folder). Not on the npm package `node`: its install script draws a warning of its own (see
// docs/decisions/cli-package.md). Prints the tarball's path.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const destination = resolve(process.argv[2] ?? join(root, 'artifacts'));
const folder = join(root, 'artifacts', 'llmstxt-package');
const repository = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const RUNTIME_DEPENDENCIES = ['piscina', 'openapi-fetch', 'robots-parser', 'playwright-core'];

rmSync(folder, { recursive: true, force: true });
mkdirSync(join(folder, 'bin'), { recursive: true });
await build({
  cwd: root,
  input: { cli: 'src/cli/main.ts', 'page-worker': 'src/generation/page-worker.ts', client: 'src/client/client.ts' },
  platform: 'node',
  external: RUNTIME_DEPENDENCIES,
  // One folder: page-pool.ts finds page-worker.mjs beside the chunk it is in.
  output: { dir: join(folder, 'dist'), format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
  logLevel: 'warn',
});
// The client's types: its declaration and the generated API types, which are types only.
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), [
  'src/client/client.ts', '--declaration', '--emitDeclarationOnly', '--skipLibCheck', '--outDir', join(folder, 'dist'),
  '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--allowImportingTsExtensions',
], { cwd: root, stdio: 'inherit' });
const declaration = join(folder, 'dist', 'client.d.ts');
writeFileSync(declaration, readFileSync(declaration, 'utf8').replace("'./api-types.ts'", "'./api-types.js'"));
copyFileSync(join(root, 'bin', 'llmstxt.mjs'), join(folder, 'bin', 'llmstxt.mjs'));
writeFileSync(
  join(folder, 'README.md'),
  `# llmstxt\n\nThe command line and typed API client of the llms.txt generation service.\n\n` +
    'It needs Node 24 to work (on an older Node, `npm install node@24` beside it); the client runs on Node 20.\n\n' +
    '    npx llmstxt generate https://example.com --out site\n' +
    '    LLMSTXT_API_URL=… LLMSTXT_API_KEY=… npx llmstxt remote generate https://example.com\n\n' +
    "    import { createApiClient } from 'llmstxt/client';\n",
);
const versions = Object.fromEntries(RUNTIME_DEPENDENCIES.map((name) => [name, repository.dependencies[name]]));
writeFileSync(
  join(folder, 'package.json'),
  `${JSON.stringify(
    {
      name: 'llmstxt',
      version: repository.version,
      description: 'The llms.txt generator on the command line (`llmstxt`), and the typed client of its service',
      type: 'module',
      bin: { llmstxt: 'bin/llmstxt.mjs' },
      exports: { './client': { types: './dist/client.d.ts', default: './dist/client.mjs' }, './package.json': './package.json' },
      // The client and `llmstxt --version` run on Node 20; the work needs Node 24 (bin/llmstxt.mjs).
      engines: { node: '>=20' },
      dependencies: versions,
    },
    null,
    2,
  )}\n`,
);
mkdirSync(destination, { recursive: true });
const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: folder, encoding: 'utf8' }));
console.log(join(destination, packed.filename));
