// `npm run example-site`: the test suite's small documentation website (a sitemap, robots.txt, docs,
// an API reference, a blog) on http://127.0.0.1:8080 (PORT to change it), so that a first run needs
// no internet. Ctrl-C stops it.
import { startDocsSite } from '../src/testing/docs-site.ts';

const site = await startDocsSite({ port: Number(process.env.PORT ?? 8080) });
console.log(`Example documentation site on ${site.origin}/`);
