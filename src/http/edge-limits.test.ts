// What a client may send: bodies limited in size per route and in nesting, headers and bodies in time.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { describeOnEachDatabase } from '../testing/service.ts';
import { MAX_JSON_DEPTH } from './json-bodies.ts';

const API = '/api/v1';
const HEADERS_TIMEOUT_MS = 1000;
const REQUEST_TIMEOUT_MS = 2000;

/** Milliseconds a fetch of `url` takes to answer. */
async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** What `work` answers, and how long each /health took, asked again and again while it ran. */
async function probeHealthDuring<T>(baseUrl: string, work: () => Promise<T>): Promise<{ answers: T; latencies: number[] }> {
  let working = true;
  const latencies: number[] = [];
  const probing = (async () => {
    // At least one probe, however quick the work.
    do latencies.push(await timed(`${baseUrl}${API}/health`));
    while (working);
  })();
  const answers = await work().finally(() => (working = false));
  await probing;
  return { answers, latencies };
}

/** A POST written straight to a socket (no client library's work in the way): its status and JSON answer. */
function rawPost(port: number, path: string, body: Buffer, token: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    // The server may answer and close before it has read the whole body.
    socket.on('error', () => {});
    socket.on('close', () => {
      const [head, answer] = received.split('\r\n\r\n');
      if (!head) return reject(new Error(`no answer to POST ${path}`));
      resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(answer) });
    });
    const headers = [`POST ${API}${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', 'Content-Type: application/json', `Content-Length: ${body.length}`, `Authorization: Bearer ${token}`];
    socket.write(headers.join('\r\n') + '\r\n\r\n');
    // Not ended: a client's end of the socket makes the server drop the request (Connection: close has it close after answering).
    socket.write(body);
  });
}

/** Sends `head` and then `trickle` every 100 ms; answers how long until the server closed the socket, and what it said. */
/**
 * Closed when its time was up: not before (but for the server's event loop clock, read once per
 * turn, which can stamp a request's start up to a busy turn early) and within the checks' interval
 * (a quarter of the headers timeout) after, with room for a loaded machine.
 */
const closedInTime = (closedAfterMs: number | null, timeoutMs: number) => closedAfterMs !== null && closedAfterMs >= 0.75 * timeoutMs && closedAfterMs < 3 * timeoutMs;

/** How a trickling socket ended: after how long (null: still open at `giveUpMs`), what it received, and its error if one ended it. */
interface Trickled {
  closedAfterMs: number | null;
  received: string;
  error: string | null;
}

function trickle(port: number, head: string, trickled: string, giveUpMs: number): Promise<Trickled> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let received = '';
    let error: string | null = null;
    const timer = setInterval(() => socket.writable && socket.write(trickled), 100);
    const finish = (closedAfterMs: number | null) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs, received, error });
    };
    const giveUp = setTimeout(() => finish(null), giveUpMs);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', (cause: NodeJS.ErrnoException) => (error = cause.code ?? cause.message));
    socket.on('close', () => finish(performance.now() - started));
  });
}

/** The socket's end, for an assertion's message: a failure on a loaded machine says how it ended. */
const ending = ({ closedAfterMs, received, error }: Trickled) => `closed after ${closedAfterMs} ms, error ${error}, received ${JSON.stringify(received.slice(0, 200))}`;

describeOnEachDatabase(
  'Limits at the edge',
  (service) => {
    test('a body over its route’s limit is refused with 413; the job routes take longer bodies than the rest', async () => {
      const { apiKey } = await service().createAccount();
      const padding = 'x'.repeat(20 * 1024);
      const account = await service().request('POST', `${API}/accounts`, { body: { email: 'big@example.com', firstName: padding } });
      assert.deepEqual([account.status, account.body], [413, { message: 'Request body is too large' }]);
      const key = await service().request('POST', `${API}/api-keys`, { token: apiKey, body: { name: padding } });
      assert.deepEqual([key.status, key.body], [413, { message: 'Request body is too large' }]);
      // 100 path patterns of 200 characters: the largest valid options fit.
      const patterns = Array.from({ length: 50 }, (_, n) => `/${String(n).padStart(3, '0')}${'/docs'.repeat(39)}`);
      const estimate = await service().request('POST', `${API}/generate`, {
        token: apiKey,
        body: { url: 'https://example.com/', options: { maxUrls: 0, includePaths: patterns, excludePaths: patterns } },
      });
      assert.deepEqual([estimate.status, estimate.body], [400, { message: 'Validation error: options.maxUrls must be >= 1' }]);
      const tooLong = await service().request('POST', `${API}/generate`, { token: apiKey, body: { url: 'https://example.com/', options: {}, filler: 'x'.repeat(300 * 1024) } });
      assert.deepEqual([tooLong.status, tooLong.body], [413, { message: 'Request body is too large' }]);
    });

    test('large and deeply nested JSON bodies are refused at once (413, 400), and /health stays quick while 40 of them arrive', async () => {
      const { apiKey } = await service().createAccount();
      const port = Number(new URL(service().baseUrl).port);
      const nested = (bytes: number) => Buffer.from('['.repeat(bytes / 2) + ']'.repeat(bytes / 2));
      const [megabyte, deep] = [nested(1024 * 1024), nested(200 * 1024)];
      const sendAll = (accountsBody: Buffer, generateBody: Buffer) =>
        probeHealthDuring(service().baseUrl, () =>
          Promise.all([
            ...Array.from({ length: 20 }, () => rawPost(port, '/accounts', accountsBody, apiKey)),
            ...Array.from({ length: 20 }, () => rawPost(port, '/generate', generateBody, apiKey)),
          ]),
        );
      // The baseline: /health while as many small bodies arrive, the same way. Medians: a single
      // slow answer may come from the machine's other work, not from the bodies; and up to three
      // rounds, as the suite's other files share the machine: bodies that held the event loop
      // would slow every round.
      const rounds: string[] = [];
      let answers: Array<{ status: number; body: unknown }> = [];
      while (rounds.length < 3) {
        const small = await sendAll(Buffer.from('{}'), Buffer.from('{}'));
        const large = await sendAll(megabyte, deep);
        answers = large.answers;
        const [during, usual] = [median(large.latencies), median(small.latencies)];
        if (during < 6 * usual) break;
        rounds.push(`/health took ${during.toFixed(1)} ms (median) during the large bodies, ${usual.toFixed(1)} ms during small ones`);
      }
      assert.ok(rounds.length < 3, rounds.join('; '));
      for (const answer of answers.slice(0, 20)) assert.deepEqual([answer.status, answer.body], [413, { message: 'Request body is too large' }]);
      const tooDeep = { message: `Validation error: the JSON body nests deeper than ${MAX_JSON_DEPTH} levels` };
      for (const answer of answers.slice(20)) assert.deepEqual([answer.status, answer.body], [400, tooDeep]);
      const deepButSmall = `{"url":"https://example.com/","options":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`;
      const send = (path: string, rawBody: string) => service().request('POST', `${API}${path}`, { token: apiKey, rawBody, headers: { 'content-type': 'application/json' } });
      const shallowDepthOver = await send('/generate', deepButSmall);
      assert.deepEqual([shallowDepthOver.status, shallowDepthOver.body], [400, tooDeep]);
      // Brackets inside strings are text, not nesting.
      const inString = await send('/generate', JSON.stringify({ url: 'https://example.com/', options: { maxUrls: 0, includePaths: ['['.repeat(100)] } }));
      assert.deepEqual([inString.status, inString.body], [400, { message: 'Validation error: options.maxUrls must be >= 1' }]);
    });

    test('a client trickling its headers or its body, or sending nothing, is disconnected when its time is up', async () => {
      const port = Number(new URL(service().baseUrl).port);
      const headers = await trickle(port, `GET ${API}/health HTTP/1.1\r\nHost: 127.0.0.1\r\n`, 'X-Slow: 1\r\n', 10 * HEADERS_TIMEOUT_MS);
      assert.ok(headers.closedAfterMs !== null, 'the socket trickling headers is still open');
      assert.ok(closedInTime(headers.closedAfterMs, HEADERS_TIMEOUT_MS), ending(headers));

      const silent = await trickle(port, '', '', 10 * HEADERS_TIMEOUT_MS);
      assert.ok(silent.closedAfterMs !== null, 'the socket that sends nothing is still open');
      assert.ok(closedInTime(silent.closedAfterMs, HEADERS_TIMEOUT_MS), ending(silent));

      const body = await trickle(
        port,
        `POST ${API}/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"`,
        'a',
        10 * REQUEST_TIMEOUT_MS,
      );
      assert.ok(body.closedAfterMs !== null, 'the socket trickling its body is still open');
      assert.ok(closedInTime(body.closedAfterMs, REQUEST_TIMEOUT_MS), ending(body));
      assert.match(body.received, /^HTTP\/1\.1 408 /);

      // A client that keeps to its time is answered as usual.
      assert.equal((await fetch(`${service().baseUrl}${API}/health`)).status, 200);
    });
  },
  { env: { HTTP_HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_MS / 1000), HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_MS / 1000) } },
);
