/** The MCP endpoint through the SDK's own client over real HTTP, on a site the service generated. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { ledgerOf, waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

let docs: DocsSite;
before(async () => {
  docs = await startDocsSite();
});
after(async () => {
  await docs.close();
});

async function connect(service: TestService, token: string): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${service.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return client;
}

interface ToolAnswer {
  isError: boolean;
  text: string;
  json: any;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text: string }> };
  const text = result.content.map((part) => part.text).join('');
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // a text answer (llms.txt, a page's markdown, an error's message)
  }
  return { isError: result.isError === true, text, json };
}

async function generate(service: TestService, apiKey: string, url: string, options: Record<string, unknown>) {
  const start = await service.request('POST', '/api/v1/generate', { token: apiKey, body: { url, options: { generationMethod: 'simple', ...options } } });
  assert.equal(start.status, 200, start.text);
  const job = await waitForGeneration(service, apiKey, start.body.jobId);
  assert.equal(job.status, 'completed', job.error);
  return job;
}

describeOnEachDatabase('MCP endpoint', (service) => {
  let owner: { id: string; apiKey: string };
  let full: any;
  let metadataOnly: any;
  let client: Client;
  before(async () => {
    owner = await service().createAccount();
    full = await generate(service(), owner.apiKey, `${docs.origin}/`, { showFullText: true });
    metadataOnly = await generate(service(), owner.apiKey, `${docs.origin}/docs/`, {});
    client = await connect(service(), owner.apiKey);
  });
  after(async () => {
    await client?.close();
  });

  test('lists its six tools', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['generate', 'get_llms_txt', 'get_page', 'job_status', 'list_sites', 'search_docs']);
    assert.ok(tools.every((tool) => tool.description && tool.inputSchema.type === 'object'));
  });

  test("list_sites: the account's sites with their file URLs and sizes", async () => {
    const answer = await call(client, 'list_sites');
    assert.equal(answer.isError, false, answer.text);
    assert.equal(answer.json.total, 2);
    const site = answer.json.sites.find((each: any) => each.id === full.siteId);
    assert.equal(site.url, `${docs.origin}/`);
    assert.equal(site.fileUrl, full.fileUrl);
    assert.equal(site.fullTextUrl, full.fullTextUrl);
    assert.deepEqual(site.files, full.files);
  });

  test('get_llms_txt by site id and by URL answers the hosted file; full: true the llms-full.txt', async () => {
    const hosted = await (await fetch(full.fileUrl)).text();
    assert.equal((await call(client, 'get_llms_txt', { site: full.siteId })).text, hosted);
    assert.equal((await call(client, 'get_llms_txt', { site: docs.origin })).text, hosted, 'the URL as given, normalized like POST /generate');
    assert.equal((await call(client, 'get_llms_txt', { site: full.siteId, full: true })).text, await (await fetch(full.fullTextUrl)).text());
  });

  test('get_page: the stored markdown of a listed page, a page read now where none was stored, and no unlisted page', async () => {
    const stored = await call(client, 'get_page', { url: `${docs.origin}/docs/troubleshooting`, site: full.siteId });
    assert.equal(stored.isError, false, stored.text);
    assert.match(stored.text, /^# Troubleshooting/);
    assert.match(stored.text, /within ten meters of the hub/);

    const before = docs.hits.filter((path) => path === '/docs/configuration').length;
    const live = await call(client, 'get_page', { url: `${docs.origin}/docs/configuration`, site: metadataOnly.siteId });
    assert.equal(live.isError, false, live.text);
    assert.match(live.text, /Widgets read their configuration from a YAML file/);
    assert.equal(docs.hits.filter((path) => path === '/docs/configuration').length, before + 1, 'fetched from the site now');

    const unlisted = await call(client, 'get_page', { url: `${docs.origin}/private/secret` });
    assert.deepEqual([unlisted.isError, unlisted.text], [true, 'This page is not listed in the llms.txt of any of your sites']);
  });

  test('search_docs finds a page by a phrase from its body, best first, with the passage', async () => {
    const answer = await call(client, 'search_docs', { site: full.siteId, query: '"ten meters of the hub"', limit: 3 });
    assert.equal(answer.isError, false, answer.text);
    assert.equal(answer.json.results[0].url, `${docs.origin}/docs/troubleshooting`);
    assert.match(answer.json.results[0].passage, /\*\*meters\*\*/);
    const stemmed = await call(client, 'search_docs', { site: full.siteId, query: 'pairing widgets' });
    assert.ok(stemmed.json.results.length >= 2, stemmed.text);
    assert.ok(stemmed.json.results.every((hit: any, i: number, all: any[]) => i === 0 || all[i - 1].rank >= hit.rank));

    const notStored = await call(client, 'search_docs', { site: metadataOnly.siteId, query: 'widget' });
    assert.deepEqual([notStored.isError, notStored.text], [true, "This site's pages are not stored: generate it with showFullText (or the enhanced method) to search them"]);
  });

  test('generate and job_status: a job charged like the API, followed to completion', async () => {
    const started = await call(client, 'generate', { url: `${docs.origin}/api/widgets`, options: { generationMethod: 'simple', maxUrls: 20 } });
    assert.equal(started.isError, false, started.text);
    assert.equal(started.json.status, 'queued');
    assert.equal(started.json.creditsUsed, 2);
    const { rows: ledger } = await ledgerOf(service(), owner.id);
    assert.ok(ledger.some((row) => row.type === 'usage' && row.amount === -2 && row.siteId === started.json.siteId), JSON.stringify(ledger));
    let status: ToolAnswer;
    do status = await call(client, 'job_status', { jobId: started.json.jobId });
    while (status.json.status === 'pending' || status.json.status === 'processing');
    assert.equal(status.json.status, 'completed', status.text);
    assert.equal(status.json.fileUrl, `${service().baseUrl}/api/v1/file/${started.json.siteId}`);

    const invalid = await call(client, 'generate', { url: docs.origin, options: { maxUrls: 5000 } });
    assert.deepEqual([invalid.isError, invalid.text], [true, 'Validation error: options.maxUrls must be <= 1000']);
  });

  test("an unknown site, an unknown job and another account's site answer the API's messages", async () => {
    assert.deepEqual(await errorOf(client, 'get_llms_txt', { site: 'no-such-site' }), 'Site not found');
    assert.deepEqual(await errorOf(client, 'job_status', { jobId: 'no-such-job' }), 'Generation job not found');
    const stranger = await service().createAccount();
    const other = await connect(service(), stranger.apiKey);
    try {
      assert.equal(await errorOf(other, 'get_llms_txt', { site: full.siteId }), 'Access denied to this site');
      assert.equal(await errorOf(other, 'search_docs', { site: full.siteId, query: 'widget' }), 'Access denied to this site');
      assert.equal(await errorOf(other, 'job_status', { jobId: full.id }), 'Access denied to this job');
      assert.equal(await errorOf(other, 'get_llms_txt', { site: docs.origin }), 'Site not found', 'a URL names only the caller’s own sites');
      assert.equal(await errorOf(other, 'get_page', { url: `${docs.origin}/docs/troubleshooting` }), 'This page is not listed in the llms.txt of any of your sites');
      assert.equal((await call(other, 'list_sites')).json.total, 0);
    } finally {
      await other.close();
    }
  });

  test('refuses a bad key and a session token with 401; GET and DELETE answer 405', async () => {
    const unauthorized = (error: any) => error.code === 401 && /"message":"Unauthorized"/.test(error.message);
    await assert.rejects(connect(service(), 'llmstxt_not-a-real-key'), unauthorized);
    const { accessToken } = await service().login(owner.apiKey);
    await assert.rejects(connect(service(), accessToken), unauthorized);
    const noKey = await service().request('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    assert.deepEqual([noKey.status, noKey.body], [401, { message: 'Unauthorized' }]);
    const get = await service().request('GET', '/mcp', { token: owner.apiKey });
    assert.deepEqual([get.status, get.headers.get('allow'), get.body.message], [405, 'POST', 'The MCP endpoint is stateless: send JSON-RPC messages with POST']);
  });
}, { env: { CRAWL_ALLOW_PRIVATE: 'true' } });

async function errorOf(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const answer = await call(client, name, args);
  assert.equal(answer.isError, true, `${name} should fail: ${answer.text}`);
  return answer.text;
}
