import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateLlmsTxt, type TokenCounter } from '../llms-txt/index.ts';
import { manualContents, manualPage } from './made-up-manual.ts';
import { warmUpGeneration } from './generation-warm-up.ts';

describe('warmUpGeneration', () => {
  it('sizes the llms.txt of the made-up manual with the counter it is given, each round', async () => {
    const counted: string[] = [];
    const counter: TokenCounter = (text) => (counted.push(text), text.length);
    await warmUpGeneration(counter);
    assert.ok(counted.some((line) => line.startsWith('- [0. Chapter 0](http://manual.invalid/page-0.html)')), 'the first chapter was counted');
    assert.ok(counted.filter((line) => line.startsWith('# ')).length > 1, 'llms.txt was sized in more than one round');
  });

  it('generates a manual the stages read as a site: its contents page summed up, every chapter described', async () => {
    const site = 'http://manual.invalid/';
    const pages = [{ url: site, html: manualContents(3) }, ...[0, 1, 2].map((n) => ({ url: `${site}page-${n}.html`, html: manualPage(n) }))];
    const { llmsTxt } = await generateLlmsTxt(pages, { siteUrl: site, method: 'simple', maxPages: 4 });
    assert.match(llmsTxt, /^# The Manual\n/);
    assert.match(llmsTxt, /- \[The Manual\]\(http:\/\/manual\.invalid\/\): Covers Chapter 0, Chapter 1 and Chapter 2\./);
    for (const n of [0, 1, 2]) assert.ok(llmsTxt.includes(`- [${n}. Chapter ${n}](http://manual.invalid/page-${n}.html): What chapter ${n} is about.`));
  });
});
