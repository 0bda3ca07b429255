import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { RETRY_DELAYS_MS } from './delivery.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

/** A webhook receiver on 127.0.0.1: answers each request with the next planned reply (200 once the plan is spent). */
class Receiver {
  readonly received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  plan: Array<number | 'hang'> = [];
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body });
        const reply = this.plan.shift() ?? 200;
        if (reply === 'hang') return; // never answers: the service's timeout decides
        res.writeHead(reply).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function eventually<T>(check: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    assert.ok(Date.now() - started < timeoutMs, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let docs: DocsSite;
let receiver: Receiver;
before(async () => {
  docs = await startDocsSite();
  receiver = new Receiver();
  await receiver.start();
});
after(async () => {
  await docs.close();
  await receiver.close();
});

async function register(service: TestService, token: string, events: string[]) {
  const res = await service.request('POST', '/api/v1/webhooks/endpoints', { token, body: { url: receiver.url, events } });
  assert.equal(res.status, 201, res.text);
  return res.body as { endpoint: { id: string }; secret: string };
}

async function discover(service: TestService, token: string): Promise<string> {
  const res = await service.request('POST', '/api/v1/discovery', { token, body: { url: docs.origin, maxUrls: 5, discoveryType: 'sitemap' } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

const deliveriesOf = async (service: TestService, token: string, endpointId: string) =>
  (await service.request('GET', `/api/v1/webhooks/endpoints/${endpointId}/deliveries`, { token })).body.deliveries as any[];

describeOnEachDatabase(
  'Job webhooks',
  (service) => {
    test('a completed generation is delivered once, signed per Standard Webhooks, and listed with its attempt', async () => {
      const { apiKey } = await service().createAccount();
      const created = await service().request('POST', '/api/v1/webhooks/endpoints', { token: apiKey, body: { url: receiver.url, events: ['generation.completed', 'generation.failed'] } });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body).sort(), ['endpoint', 'message', 'secret', 'success']);
      assert.equal(created.body.message, 'Webhook endpoint registered. Store its secret now: it is not shown again');
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      const listed = await service().request('GET', '/api/v1/webhooks/endpoints', { token: apiKey });
      assert.deepEqual(listed.body.endpoints.map((e: any) => Object.keys(e).sort()), [['createdAt', 'events', 'id', 'url']]);

      const before = receiver.received.length;
      const start = await service().request('POST', '/api/v1/generate', { token: apiKey, body: { url: docs.origin, options: { generationMethod: 'simple', maxUrls: 5 } } });
      const job = await waitForGeneration(service(), apiKey, start.body.jobId);
      const request = await eventually(async () => receiver.received.slice(before).find((r) => r.body.includes(job.id)), 'the delivery');
      const payload = new Webhook(created.body.secret).verify(request.body, request.headers as Record<string, string>) as any;
      assert.equal(payload.type, 'generation.completed');
      assert.deepEqual(
        { id: payload.data.id, status: payload.data.status, fileUrl: payload.data.fileUrl, files: payload.data.files },
        { id: job.id, status: 'completed', fileUrl: job.fileUrl, files: job.files },
      );
      assert.throws(() => new Webhook(`whsec_${Buffer.from('another secret, another key').toString('base64')}`).verify(request.body, request.headers as Record<string, string>));

      const [delivery] = await eventually(async () => {
        const found = await deliveriesOf(service(), apiKey, created.body.endpoint.id);
        return found[0]?.status === 'delivered' && found;
      }, 'the delivery recorded');
      assert.equal(delivery.id, request.headers['webhook-id']);
      assert.deepEqual([delivery.event, delivery.attempts.length, delivery.attempts[0].statusCode, delivery.nextAttemptAt], ['generation.completed', 1, 200, null]);
    });

    test('retries after a 500 and a timeout, with the same webhook-id, on the backoff schedule', async () => {
      const { apiKey } = await service().createAccount();
      const { endpoint } = await register(service(), apiKey, ['discovery.completed']);
      receiver.plan = [500, 'hang'];
      const before = receiver.received.length;
      const discoveryId = await discover(service(), apiKey);
      const deliveries = () => deliveriesOf(service(), apiKey, endpoint.id);

      const [first] = await eventually(async () => ((await deliveries())[0]?.attempts.length === 1 ? deliveries() : null), 'the first attempt');
      assert.deepEqual([first.status, first.attempts[0].statusCode, first.attempts[0].error], ['pending', 500, 'HTTP 500']);
      assert.equal(new Date(first.nextAttemptAt).getTime() - new Date(first.attempts[0].at).getTime(), 5_000);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      assert.equal(receiver.received.length - before, 1, 'nothing more before the retry is due');

      service().clock.advance(5_000);
      const [second] = await eventually(async () => ((await deliveries())[0]?.attempts.length === 2 ? deliveries() : null), 'the second attempt');
      assert.deepEqual([second.status, second.attempts[1].statusCode, second.attempts[1].error], ['pending', null, 'no answer within 300 ms']);

      service().clock.advance(5 * 60_000);
      const [third] = await eventually(async () => ((await deliveries())[0]?.status === 'delivered' ? deliveries() : null), 'the delivery');
      assert.deepEqual(third.attempts.map((a: any) => a.statusCode), [500, null, 200]);
      const sent = receiver.received.slice(before);
      assert.equal(sent.length, 3);
      assert.equal(new Set(sent.map((r) => r.headers['webhook-id'])).size, 1);
      assert.equal(JSON.parse(sent[2].body).data.id, discoveryId);
    });

    test('a receiver that keeps failing is retried for more than a day, then the delivery is failed', async () => {
      const { apiKey } = await service().createAccount();
      const { endpoint } = await register(service(), apiKey, ['discovery.completed']);
      receiver.plan = Array(RETRY_DELAYS_MS.length + 1).fill(500);
      await discover(service(), apiKey);
      const attempts = async () => (await deliveriesOf(service(), apiKey, endpoint.id))[0]?.attempts.length ?? 0;
      await eventually(async () => (await attempts()) === 1, 'the first attempt');
      for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
        service().clock.advance(delay);
        await eventually(async () => (await attempts()) === index + 2, `attempt ${index + 2}`);
      }
      const [delivery] = await deliveriesOf(service(), apiKey, endpoint.id);
      assert.deepEqual([delivery.status, delivery.nextAttemptAt, delivery.attempts.length], ['failed', null, 8]);
      const span = new Date(delivery.attempts.at(-1).at).getTime() - new Date(delivery.attempts[0].at).getTime();
      assert.ok(span > 24 * 3_600_000, `${span / 3_600_000} hours of retries`);
      receiver.plan = [];
    });

    test('a restart in the middle of the retries loses no delivery', async () => {
      const { apiKey } = await service().createAccount();
      const { endpoint } = await register(service(), apiKey, ['discovery.completed']);
      receiver.plan = [503];
      await discover(service(), apiKey);
      await eventually(async () => (await deliveriesOf(service(), apiKey, endpoint.id))[0]?.attempts.length === 1, 'the failed attempt');

      await service().restart();
      service().clock.advance(5_000);
      const [delivery] = await eventually(async () => {
        const found = await deliveriesOf(service(), apiKey, endpoint.id);
        return found[0]?.status === 'delivered' && found;
      }, 'the delivery after the restart');
      assert.deepEqual(delivery.attempts.map((a: any) => a.statusCode), [503, 200]);
    });

    test('endpoints belong to their account; bad input is 400 and registers nothing', async () => {
      const owner = await service().createAccount();
      const other = await service().createAccount();
      const { endpoint } = await register(service(), owner.apiKey, ['generation.failed']);
      for (const [method, path] of [['GET', `/api/v1/webhooks/endpoints/${endpoint.id}/deliveries`], ['DELETE', `/api/v1/webhooks/endpoints/${endpoint.id}`]] as const) {
        const res = await service().request(method, path, { token: other.apiKey });
        assert.deepEqual([res.status, res.body], [404, { message: 'Webhook endpoint not found' }]);
      }
      for (const body of [{ url: receiver.url, events: ['generation.started'] }, { url: receiver.url, events: [] }, { url: 'ftp://example.com/x', events: ['generation.failed'] }, { url: receiver.url }]) {
        const res = await service().request('POST', '/api/v1/webhooks/endpoints', { token: other.apiKey, body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.message, /^Validation error: /);
      }
      assert.deepEqual((await service().request('GET', '/api/v1/webhooks/endpoints', { token: other.apiKey })).body, { endpoints: [] });
      const deleted = await service().request('DELETE', `/api/v1/webhooks/endpoints/${endpoint.id}`, { token: owner.apiKey });
      assert.deepEqual([deleted.status, deleted.body], [200, { success: true, message: 'Webhook endpoint deleted' }]);
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '0.3' } },
);

describeOnEachDatabase('Webhook endpoints and the address guard', (service) => {
  test('an endpoint on a private or loopback address is refused', async () => {
    const { apiKey } = await service().createAccount();
    for (const url of ['http://127.0.0.1:8080/hooks', 'http://10.1.2.3/hooks', 'http://[::1]/hooks', 'http://localhost:8080/hooks']) {
      const res = await service().request('POST', '/api/v1/webhooks/endpoints', { token: apiKey, body: { url, events: ['generation.completed'] } });
      assert.deepEqual([res.status, res.body], [400, { message: 'Validation error: url is not reachable for webhooks (Refused to connect to a private or reserved address)' }]);
    }
    assert.deepEqual((await service().request('GET', '/api/v1/webhooks/endpoints', { token: apiKey })).body, { endpoints: [] });
  });
});
