// Builds the web dashboard (web/ → web/dist) with Vite; run by `npm install` (prepare) and `npm run build:web`.
// In an install without dev dependencies there is no Vite: say so and leave the service API-only.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vite = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));
if (!existsSync(vite)) {
  console.warn('vite is not installed (dev dependencies omitted?): the web dashboard is not built; the service serves the API only.');
  process.exit(process.argv.includes('--optional') ? 0 : 1);
}
const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts'], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
