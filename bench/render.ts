// Rendering benchmark: a 100-page site whose pages its script builds, collected with `render:
// always`, beside the same pages served as plain HTML and collected without rendering, in the same
// run. Each run is a child process, so its memory is its own; Chromium's processes count in the
// tree's peak. Run alone: npm run bench -- render
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSite } from '../src/testing/test-site.ts';

const PAGES = Number(process.env.RENDER_BENCH_PAGES ?? 100);

interface Run {
  pages: number;
  rendered: number;
  seconds: number;
  peakRssMb: number;
  peakTreeRssMb: number;
}

function pageText(i: number): { title: string; text: string } {
  return { title: `Topic ${i}`, text: `Topic ${i} explains part ${i} of the manual: how its settings relate to the others, with an example of each. `.repeat(6) };
}

const paths = Array.from({ length: PAGES }, (_, i) => (i === 0 ? '/' : `/topic/${i}`));
const nav = (prefix: string) => paths.map((path, i) => `<li><a href="${prefix}${path === '/' ? '/' : path}">${pageText(i).title}</a></li>`).join('');

/** The same pages, as HTML (`/static/…`) and as a shell its script fills in (`/app/…`). */
function startBenchSite() {
  const content = Object.fromEntries(paths.map((path, i) => [path, pageText(i)]));
  return startSite((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    if (url === '/app/content.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ content, nav: nav('/app') }));
    }
    if (url === '/app/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(`fetch('/app/content.json').then((r) => r.json()).then(({ content, nav }) => {
        const page = content[location.pathname.slice(4) || '/'];
        document.title = page.title;
        document.getElementById('root').innerHTML = '<nav><ul>' + nav + '</ul></nav><main><h1>' + page.title + '</h1><p>' + page.text + '</p></main>';
      });`);
    }
    const [, kind, ...rest] = url.split('/');
    const page = content[`/${rest.join('/')}`];
    if (!page || (kind !== 'static' && kind !== 'app')) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      kind === 'static'
        ? `<!doctype html><html><head><title>${page.title}</title></head><body><nav><ul>${nav('/static')}</ul></nav><main><h1>${page.title}</h1><p>${page.text}</p></main></body></html>`
        : '<!doctype html><html><head><title>Loading…</title></head><body><div id="root"></div><script src="/app/app.js"></script></body></html>',
    );
  });
}

function runChild(url: string, mode: string): Promise<Run> {
  const script = fileURLToPath(new URL('./render-child.ts', import.meta.url));
  const child = spawn(process.execPath, [script, url, mode, String(PAGES)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').at(-1)!)) : reject(new Error(`render child exited with ${code}`)))),
  );
}

export async function runRenderBench(): Promise<void> {
  const site = await startBenchSite();
  try {
    const fetched = await runChild(`${site.origin}/static/`, 'never');
    const rendered = await runChild(`${site.origin}/app/`, 'always');
    const row = (name: string, r: Run) =>
      `${name.padEnd(26)}${String(r.pages).padStart(6)}${String(r.rendered).padStart(9)}${r.seconds.toFixed(2).padStart(9)}${(r.pages / r.seconds).toFixed(1).padStart(9)}${r.peakRssMb.toFixed(0).padStart(11)}${r.peakTreeRssMb.toFixed(0).padStart(13)}`;
    console.log(`${'run'.padEnd(26)}${'pages'.padStart(6)}${'rendered'.padStart(9)}${'seconds'.padStart(9)}${'pages/s'.padStart(9)}${'RSS MB'.padStart(11)}${'tree RSS MB'.padStart(13)}`);
    console.log(row('fetched (render never)', fetched));
    console.log(row('rendered (render always)', rendered));
    console.log(
      `rendered/fetched: speed x${(rendered.pages / rendered.seconds / (fetched.pages / fetched.seconds)).toFixed(3)}, ` +
        `node RSS x${(rendered.peakRssMb / fetched.peakRssMb).toFixed(2)}, tree RSS x${(rendered.peakTreeRssMb / fetched.peakTreeRssMb).toFixed(2)} ` +
        `(RENDER_CONCURRENCY ${process.env.RENDER_CONCURRENCY ?? 2}; tree RSS sums Chromium's processes, shared pages counted in each)`,
    );
  } finally {
    await site.close();
  }
}

if (import.meta.main) await runRenderBench();
