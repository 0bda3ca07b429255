// A made-up manual, read and generated when the service starts (see readMadeUpManual and
// generation-warm-up.ts): a first job then finds the parser's, the generator's and the
// tokenizer's code compiled. Its pages are shaped as documentation generators write them.

/** Enough for the first pages of a real manual to be read as fast as later ones (measured on PostgreSQL's). */
const WARM_UP_PAGES = 500;

/**
 * Reads the made-up manual's pages as crawled pages are read, so that the first job's pages find
 * the tokenizer and the reading code compiled: a service's first job took 1.46-1.55 s without it
 * (the thread then starting with the first page), 1.28-1.32 s with it (docs/decisions.md, issue 12,
 * fourteenth part). Run once, when the service starts, where the service reads pages.
 */
export function readMadeUpManual(read: (html: string, url: string) => void): void {
  for (let n = 0; n < WARM_UP_PAGES; n++) read(manualPage(n), `http://manual.invalid/page-${n}.html`);
}

/** A page as documentation generators write them: navigation bars, a contents list, sections of prose and code. */
export function manualPage(n: number): string {
  const contents = Array.from({ length: 30 }, (_, i) => `<li class="toctree-l1"><a class="reference internal" href="section-${n}-${i}.html">${n}.${i}. Section ${i}</a></li>`);
  const sections = Array.from({ length: 20 }, (_, i) =>
    [
      `<div class="section" id="s${i}"><h2>${n}.${i}. A part &amp; its settings<a class="headerlink" href="#s${i}">¶</a></h2>`,
      `<p>Paragraph ${i} explains the <code class="literal">setting_${i}</code>, with a link to <a class="xref" href="other-${i}.html#id" title="Other">another page</a> and enough words to make a sentence.</p>`,
      `<pre class="programlisting">SELECT * FROM t WHERE a = ${i};</pre><dl><dt>term ${i}</dt><dd><p>What the term means.</p></dd></dl>`,
      `<ul class="itemizedlist"><li class="listitem"><p>An item that says something.</p></li></ul></div>`,
    ].join('\n'),
  );
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${n}. Chapter ${n}</title>
<meta name="description" content="What chapter ${n} is about."><link rel="stylesheet" href="style.css"></head><body>
<div class="navheader"><table><tr><td><a accesskey="p" href="page-${n - 1}.html">Prev</a></td><td><a accesskey="u" href="index.html">Up</a></td><td><a accesskey="n" href="page-${n + 1}.html">Next</a></td></tr></table></div>
<div class="chapter"><h1 class="title">${n}. Chapter ${n}</h1><div class="toc"><ul>${contents.join('')}</ul></div>
${sections.join('\n')}</div><div class="navfooter"><a href="index.html">Home</a></div></body></html>`;
}

/**
 * The manual's home page: a contents list of its chapters and nothing else, so that the generator
 * reads its main content (see readContentFacts), as it does for contents pages of real sites.
 */
export function manualContents(chapters: number): string {
  const entries = Array.from({ length: chapters }, (_, n) => `<li class="chapter"><a href="page-${n}.html">${n}. Chapter ${n}</a></li>`);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>The Manual</title></head><body>
<div class="book"><h1 class="title">The Manual</h1><div class="toc"><p><b>Table of Contents</b></p><ul>${entries.join('')}</ul></div></div></body></html>`;
}
