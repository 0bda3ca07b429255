// A fake OpenAI-compatible chat-completions server for tests: POST /v1/chat/completions on
// 127.0.0.1, answering in OpenAI's JSON format. By default it "describes" every page the
// describer's prompt lists; a test can script any answer per call (delay, HTTP error, malformed
// content, custom JSON, token usage).
//
// What @ai-sdk/openai-compatible sends for structured output (generateText + Output.object):
// `response_format: { type: "json_schema", json_schema: { name, schema, strict: true } }`
// (or `{ type: "json_object" }` when the provider is created with supportsStructuredOutputs:
// false), and it reads the JSON from `choices[0].message.content`. A request that carries
// `tools` with a forced `tool_choice` is answered with a tool call instead.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlmRequest {
  /** 0-based number of this call on the server. */
  index: number;
  headers: IncomingHttpHeaders;
  body: ChatCompletionRequest;
  /** The system and user messages' text. */
  system: string;
  prompt: string;
  /** Pages listed in the describer's prompt (`<page url="…">` blocks with their current title). */
  pages: { url: string; title: string }[];
  /** Whether the site's name and summary are asked for too. */
  wantsSite: boolean;
}

export interface FakeLlmReply {
  /** Wait this long before answering (a slow model). */
  delayMs?: number;
  /** Answer with this HTTP status and an OpenAI-style error body. */
  status?: number;
  /** The assistant message's content, verbatim (e.g. malformed JSON). */
  content?: string;
  /** The assistant message's content as JSON. */
  json?: unknown;
  /** Reported token usage; by default about 4 characters per token of prompt and answer. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export type FakeLlmHandler = (request: FakeLlmRequest) => FakeLlmReply | Promise<FakeLlmReply>;

export interface FakeLlmServer {
  /** Base URL for the provider, ending in /v1. */
  baseURL: string;
  /** Every request received, in order. */
  requests: FakeLlmRequest[];
  /** Replaces the handler (the default describes every page). */
  setHandler(handler: FakeLlmHandler): void;
  close(): Promise<void>;
}

interface ChatCompletionRequest {
  model?: string;
  messages?: { role: string; content: string | { type: string; text?: string }[] }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: { required?: string[] } } };
  tools?: { type: string; function: { name: string } }[];
  tool_choice?: unknown;
  stream?: boolean;
}

/** Answers every listed page with "AI title: …" and "AI description of …", and the site when asked. */
export const describeEveryPage: FakeLlmHandler = (request) => ({
  json: {
    ...(request.wantsSite ? { site: { name: 'AI Site', summary: 'An AI-written summary of the site.' } } : {}),
    pages: request.pages.map((page) => ({
      url: page.url,
      title: `AI title: ${page.title}`,
      description: `AI description of ${page.url}.`,
      section: 'Docs',
    })),
  },
});

export async function startFakeLlmServer(options: { handler?: FakeLlmHandler; apiKey?: string } = {}): Promise<FakeLlmServer> {
  let handler = options.handler ?? describeEveryPage;
  const requests: FakeLlmRequest[] = [];

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendError(res, 404, 'Not found');
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) return sendError(res, 401, 'Invalid API key');
    let body: ChatCompletionRequest;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return sendError(res, 400, 'Request body is not JSON');
    }
    if (body.stream) return sendError(res, 400, 'This fake server does not stream');

    const request = toRequest(requests.length, req.headers, body);
    requests.push(request);
    let reply: FakeLlmReply;
    try {
      reply = await handler(request);
    } catch (error) {
      return sendError(res, 500, `Fake handler failed: ${(error as Error).message}`);
    }
    if (reply.delayMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reply.delayMs);
        res.on('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (res.destroyed || res.writableEnded) return;
    if (reply.status && reply.status >= 400) return sendError(res, reply.status, `Scripted error ${reply.status}`);
    sendCompletion(res, request, reply);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    setHandler(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toRequest(index: number, headers: IncomingHttpHeaders, body: ChatCompletionRequest): FakeLlmRequest {
  const text = (role: string) =>
    (body.messages ?? [])
      .filter((message) => message.role === role)
      .map((message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => part.text ?? '').join('')))
      .join('\n');
  const prompt = text('user');
  const pages = [...prompt.matchAll(/<page url="([^"]*)">\nCurrent title: ([^\n]*)/g)].map((match) => ({ url: match[1], title: match[2] }));
  const required = body.response_format?.json_schema?.schema?.required;
  const wantsSite = required ? required.includes('site') : /describe the whole website in "site"/.test(prompt);
  return { index, headers, body, system: text('system'), prompt, pages, wantsSite };
}

function sendCompletion(res: ServerResponse, request: FakeLlmRequest, reply: FakeLlmReply): void {
  const content = reply.content ?? JSON.stringify(reply.json ?? {});
  const usage = reply.usage ?? {
    prompt_tokens: Math.ceil((request.system.length + request.prompt.length) / 4),
    completion_tokens: Math.ceil(content.length / 4),
  };
  const forcedTool = request.body.tools?.length && request.body.tool_choice ? request.body.tools[0].function.name : null;
  const message = forcedTool
    ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${request.index}`, type: 'function', function: { name: forcedTool, arguments: content } }] }
    : { role: 'assistant', content };
  sendJson(res, 200, {
    id: `chatcmpl-fake-${request.index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.body.model ?? 'fake-model',
    choices: [{ index: 0, message, finish_reason: forcedTool ? 'tool_calls' : 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  });
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null } });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
