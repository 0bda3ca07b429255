// Golden files: each corpus site's llms.txt (simple, maxUrls 200, one service on PGlite) must stay
// byte for byte what golden/corpus/ holds. An intended change rewrites them in the same commit:
// npm run bench -- quality --update.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { corpusSites, CORPUS_DIR, GOLDEN_DIR, GOLDEN_OPTIONS, goldenDifference, goldenPath, withGoldenOrigin } from '../testing/golden.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { startTestService, type TestService } from '../testing/service.ts';
import { serveFolder } from '../testing/static-folder.ts';

const sites = corpusSites();
if (!sites) {
  const folder = join(GOLDEN_DIR, 'corpus');
  const count = existsSync(folder) ? readdirSync(folder).length : 0;
  console.log(`# golden files: ${CORPUS_DIR} is absent, ${count} corpus sites skipped`);
}

describe('golden files of the corpus sites [pglite]', { skip: !sites && '../shared/corpora/sites is absent' }, () => {
  let service: TestService;
  before(async () => {
    service = await startTestService('pglite', { env: { CRAWL_ALLOW_PRIVATE: 'true' } });
  });
  after(async () => {
    await service?.close();
  });

  for (const site of sites ?? []) {
    test(`${site.name}: the llms.txt is byte for byte its golden file`, async () => {
      const folder = await serveFolder(join(CORPUS_DIR, site.name));
      try {
        const { apiKey } = await service.createAccount();
        const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url: `${folder.origin}${site.start}`, options: GOLDEN_OPTIONS } });
        assert.equal(start.status, 200, start.text);
        const job = await waitForGeneration(service, apiKey, start.body.jobId, 120_000);
        assert.equal(job.status, 'completed', job.error);
        const llmsTxt = withGoldenOrigin(await (await fetch(job.fileUrl)).text(), folder.origin);
        const difference = goldenDifference(goldenPath('corpus', site.name), llmsTxt);
        if (difference) assert.fail(`${difference}\nAn intended change? Rewrite the golden files: npm run bench -- quality --update`);
      } finally {
        await folder.close();
      }
    });
  }
});
