import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { page, routes, startSite, type TestSite } from '../testing/test-site.ts';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

let site: DocsSite;
/** A page about tokenizers that writes their special tokens as text, in its title and body. */
let tokenizerDocs: TestSite;
/** A site whose guide changes between two generations. */
let changingSite: TestSite;
const changingPages: Record<string, string> = {};
const guide = (version: string) =>
  page('Guide', ['/'], '').replace('</h1>', `</h1><p>Install the tool ${version} with the package manager.</p><p>Every page of the guide ends with this same line.</p>`);
const SPECIAL_TOKENS_TEXT = 'Each document ends with <|endoftext|>, and a prompt with <|endofprompt|>.';
before(async () => {
  site = await startDocsSite();
  tokenizerDocs = await startSite(
    routes({
      '/': page('Tokenizer guide', ['/special.html']),
      '/special.html': page('The <|endoftext|> token', [], '').replace('</h1>', `</h1><p>${SPECIAL_TOKENS_TEXT}</p>`),
    }),
  );
  Object.assign(changingPages, { '/': page('Home', ['/guide.html']).replace('</h1>', '</h1><p>A home page with a paragraph of its own.</p>'), '/guide.html': guide('1.0') });
  changingSite = await startSite(routes(changingPages));
});
after(async () => {
  await site.close();
  await tokenizerDocs.close();
  await changingSite.close();
});

/** Tokens of the text as a model reads a file: a special token's spelling is ordinary text there. */
const tokensOf = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

/** llms-full.txt's page blocks by source URL. */
function blocksOf(fullText: string): Map<string, string> {
  const blocks = fullText.split('\n\n---\n\n').slice(1);
  return new Map(blocks.map((block) => [/^Source: (\S+)$/m.exec(block)![1], block.trim()]));
}

async function generate(service: TestService, apiKey: string, options: object, url = site.origin) {
  const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url, options: { generationMethod: 'simple', showFullText: true, cacheAge: 0, ...options } } });
  assert.equal(start.status, 200, start.text);
  const job = await waitForGeneration(service, apiKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  return { job, fullText: await (await fetch(job.fullTextUrl)).text() };
}

describeOnEachDatabase(
  'Token counts and the llms-full.txt budget',
  (service) => {
    test('maxTokens keeps llms-full.txt within budget with the most important pages whole', async () => {
      const { apiKey } = await service().createAccount();
      const whole = await generate(service(), apiKey, {});
      assert.equal(whole.job.files.llmsFullTxt.tokens, countTokens(whole.fullText));
      assert.equal(whole.job.files.llmsFullTxt.bytes, Buffer.byteLength(whole.fullText));
      const budget = Math.floor(whole.job.files.llmsFullTxt.tokens / 2);

      const limited = await generate(service(), apiKey, { maxTokens: budget });
      assert.equal(limited.job.options.maxTokens, budget);
      assert.equal(limited.job.files.llmsFullTxt.tokens, countTokens(limited.fullText));
      assert.ok(limited.job.files.llmsFullTxt.tokens <= budget, `${limited.job.files.llmsFullTxt.tokens} tokens for a budget of ${budget}`);
      const all = blocksOf(whole.fullText);
      const kept = blocksOf(limited.fullText);
      assert.ok(kept.size > 0 && kept.size < all.size, `${kept.size} of ${all.size} pages kept`);
      assert.ok(kept.has(`${site.origin}/`), 'the home page is the most important');
      for (const [url, block] of kept) assert.equal(block, all.get(url), `${url} is kept whole`);
      // llms.txt itself still lists every page; the job and llms-full.txt say how many the budget left out.
      assert.equal(limited.job.files.llmsTxt.tokens, whole.job.files.llmsTxt.tokens);
      const leftOut = all.size - kept.size;
      assert.equal(limited.job.pagesLeftOut, leftOut);
      assert.equal(limited.job.message, `Generated from ${all.size} pages; llms-full.txt leaves ${leftOut} of them out to stay within maxTokens`);
      const note = `${leftOut} of the ${all.size} pages listed in llms.txt ${leftOut === 1 ? 'is' : 'are'} left out of this file to keep it within its token budget.`;
      assert.ok(limited.fullText.split('\n\n---\n\n')[0].endsWith(`\n\n${note}`), limited.fullText.slice(0, 500));
      assert.deepEqual([whole.job.pagesLeftOut, whole.job.message], [null, `Generated from ${all.size} pages`]);
    });

    test('a page that writes special tokens (<|endoftext|>) as text is counted as text, not a failed job', async () => {
      const { apiKey } = await service().createAccount();
      const start = await service().request('POST', '/api/v1/generate', {
        token: apiKey,
        body: { url: tokenizerDocs.origin, options: { generationMethod: 'simple', showFullText: true, cacheAge: 0 } },
      });
      assert.equal(start.status, 200, start.text);
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      assert.equal(job.status, 'completed', job.error);
      const [llmsTxt, fullText] = await Promise.all([fetch(job.fileUrl).then((r) => r.text()), fetch(job.fullTextUrl).then((r) => r.text())]);
      assert.ok(fullText.includes(SPECIAL_TOKENS_TEXT), fullText);
      assert.equal(job.files.llmsTxt.tokens, tokensOf(llmsTxt));
      assert.equal(job.files.llmsFullTxt.tokens, tokensOf(fullText));
    });

    test('a site generated again, a line of it changed, gets its files counted to the token', async () => {
      // The generation thread keeps the counts of the lines it counted: the second job finds most of them.
      const { apiKey } = await service().createAccount();
      for (const version of ['1.0', '2.0']) {
        changingPages['/guide.html'] = guide(version);
        const { job, fullText } = await generate(service(), apiKey, {}, changingSite.origin);
        const llmsTxt = await (await fetch(job.fileUrl)).text();
        assert.ok(fullText.includes(`Install the tool ${version} with`), fullText);
        assert.deepEqual(job.files.llmsTxt, { bytes: Buffer.byteLength(llmsTxt), tokens: tokensOf(llmsTxt) });
        assert.deepEqual(job.files.llmsFullTxt, { bytes: Buffer.byteLength(fullText), tokens: tokensOf(fullText) });
      }
    });

    test('maxTokens without llms-full.txt, or below 100, is 400 and charges nothing', async () => {
      const { id, apiKey } = await service().createAccount();
      const before = await ledgerOf(service(), id);
      const withoutFullText = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { maxTokens: 5000 } } });
      assert.deepEqual([withoutFullText.status, withoutFullText.body], [400, { message: 'Validation error: maxTokens limits llms-full.txt: it needs showFullText true' }]);
      const tooSmall = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: site.origin, options: { showFullText: true, maxTokens: 99 } } });
      assert.equal(tooSmall.status, 400);
      assert.match(tooSmall.body.message, /^Validation error: .*maxTokens/);
      assert.deepEqual(await ledgerOf(service(), id), before);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true' } },
);
