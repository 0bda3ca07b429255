import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server.ts';

const PROMPT = 'Write entries for these 1 pages:\n\n<page url="https://a.dev/x">\nCurrent title: X\nCurrent description: (none)\nContent:\nHello\n</page>';

describe('the fake LLM server', () => {
  let server: FakeLlmServer;
  const post = (body: unknown, path = '/v1/chat/completions') =>
    fetch(server.baseURL.replace('/v1', '') + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    server = await startFakeLlmServer();
  });
  after(() => server.close());

  test('answers in the chat-completions format, describing the pages listed in the prompt', async () => {
    const response = await post({ model: 'm', messages: [{ role: 'user', content: PROMPT }], response_format: { type: 'json_object' } });
    const body = await response.json();
    assert.equal(response.status, 200);
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.deepEqual(JSON.parse(body.choices[0].message.content).pages, [
      { url: 'https://a.dev/x', title: 'AI title: X', description: 'AI description of https://a.dev/x.', section: 'Docs' },
    ]);
    assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  test('answers a forced tool call with the JSON as its arguments', async () => {
    const response = await post({
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }] }],
      tools: [{ type: 'function', function: { name: 'json' } }],
      tool_choice: { type: 'function', function: { name: 'json' } },
    });
    const body = await response.json();
    assert.equal(body.choices[0].finish_reason, 'tool_calls');
    const call = body.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'json');
    assert.equal(JSON.parse(call.function.arguments).pages[0].url, 'https://a.dev/x');
  });

  test('refuses streaming, unknown paths and bodies that are not JSON', async () => {
    assert.equal((await post({ model: 'm', stream: true, messages: [] })).status, 400);
    assert.equal((await post({}, '/v1/embeddings')).status, 404);
    const notJson = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{' });
    assert.equal(notJson.status, 400);
  });
});
