import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startDocsSite, type DocsSite } from '../testing/docs-site.ts';
import { randomUUID } from 'node:crypto';
import { sealSecret } from '../crypto/secrets.ts';
import { eq } from '../db/orm.ts';
import { webhookEndpoints } from '../db/schema.ts';
import { RETRY_DELAYS_MS } from './delivery.ts';
import { SECRET_PURPOSE } from './endpoints.ts';
import { recordEvent } from './events.ts';
import { waitForGeneration } from '../testing/jobs.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

/** A webhook receiver on 127.0.0.1: answers each request with the next planned reply (200 once the plan is spent). */
class Receiver {
  readonly received: Array<{ headers: IncomingHttpHeaders; body: string; at: number }> = [];
  plan: Array<number | 'hang'> = [];
  /** what it answers once the plan is spent */
  otherwise: number | 'hang' = 200;
  /** how long each answer takes */
  delayMs = 0;
  /** the most requests it was answering at once */
  mostAtOnce = 0;
  private answering = 0;
  private server!: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      this.mostAtOnce = Math.max(this.mostAtOnce, ++this.answering);
      res.on('close', () => this.answering--);
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body, at: performance.now() });
        const reply = this.plan.shift() ?? this.otherwise;
        if (reply === 'hang') return; // never answers: the service's timeout decides
        setTimeout(() => res.writeHead(reply).end(), this.delayMs);
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

/** Queues a `discovery.completed` event for the account, as a finished discovery does. */
async function event(service: TestService, accountId: string, data: Record<string, unknown> = { id: randomUUID() }) {
  await recordEvent(service.db, accountId, 'discovery.completed', data, service.clock.now());
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
      assert.deepEqual(listed.body.endpoints.map((e: any) => Object.keys(e).sort()), [['createdAt', 'disabledAt', 'events', 'id', 'status', 'url']]);
      assert.deepEqual([listed.body.endpoints[0].status, listed.body.endpoints[0].disabledAt], ['active', null]);

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

    test('a test event is sent on request, signed, and logged with its attempt; a disabled or unknown endpoint is refused', async () => {
      const { apiKey } = await service().createAccount();
      const { endpoint, secret } = await register(service(), apiKey, ['generation.completed']);
      const before = receiver.received.length;
      const sent = await service().request('POST', `/api/v1/webhooks/endpoints/${endpoint.id}/test`, { token: apiKey });
      assert.equal(sent.status, 202, sent.text);
      assert.deepEqual([sent.body.message, sent.body.delivery.event, sent.body.delivery.status], ['Test event queued: it is sent within seconds and listed with its attempts in the delivery log', 'webhook.test', 'pending']);
      const request = await eventually(async () => receiver.received.slice(before).find((r) => r.headers['webhook-id'] === sent.body.delivery.id), 'the test event');
      const payload = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as any;
      assert.deepEqual([payload.type, payload.data], ['webhook.test', { endpointId: endpoint.id }]);
      const [delivery] = await eventually(async () => {
        const found = await deliveriesOf(service(), apiKey, endpoint.id);
        return found[0]?.status === 'delivered' && found;
      }, 'the test delivery recorded');
      assert.deepEqual([delivery.id, delivery.event, delivery.attempts.length, delivery.attempts[0].statusCode], [sent.body.delivery.id, 'webhook.test', 1, 200]);

      const other = await service().createAccount();
      const foreign = await service().request('POST', `/api/v1/webhooks/endpoints/${endpoint.id}/test`, { token: other.apiKey });
      assert.deepEqual([foreign.status, foreign.body], [404, { message: 'Webhook endpoint not found' }]);
      await service().db.update(webhookEndpoints).set({ disabledAt: service().clock.now() }).where(eq(webhookEndpoints.id, endpoint.id));
      const disabled = await service().request('POST', `/api/v1/webhooks/endpoints/${endpoint.id}/test`, { token: apiKey });
      assert.deepEqual([disabled.status, disabled.body], [409, { message: 'This webhook endpoint is disabled: enable it before sending it a test event' }]);
      assert.equal((await deliveriesOf(service(), apiKey, endpoint.id)).length, 1, 'nothing queued for a disabled endpoint');
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

    test('an endpoint that fails every attempt for a day is disabled, says so in its delivery log, and is enabled again on request', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const { endpoint } = await register(service(), apiKey, ['discovery.completed']);
      receiver.plan = Array(RETRY_DELAYS_MS.length + 1).fill(500);
      await event(service(), accountId);
      const attempts = async () => (await deliveriesOf(service(), apiKey, endpoint.id))[0]?.attempts.length ?? 0;
      const statusOf = async () => (await service().request('GET', '/api/v1/webhooks/endpoints', { token: apiKey })).body.endpoints[0].status;
      await eventually(async () => (await attempts()) === 1, 'the first attempt');
      for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
        assert.equal(await statusOf(), 'active', `still active before attempt ${index + 2}`);
        service().clock.advance(delay);
        await eventually(async () => (await deliveriesOf(service(), apiKey, endpoint.id)).some((d) => d.attempts.length === index + 2), `attempt ${index + 2}`);
      }

      const [notice, delivery] = await deliveriesOf(service(), apiKey, endpoint.id);
      assert.deepEqual([delivery.status, delivery.nextAttemptAt, delivery.attempts.length], ['failed', null, 8]);
      const span = new Date(delivery.attempts.at(-1).at).getTime() - new Date(delivery.attempts[0].at).getTime();
      assert.ok(span > 24 * 3_600_000, `${span / 3_600_000} hours of retries`);
      assert.deepEqual([notice.event, notice.status, notice.attempts, notice.payload.type], ['webhook.disabled', 'notice', [], 'webhook.disabled']);
      assert.equal(
        notice.payload.data.reason,
        'Every attempt failed for 24 hours: the endpoint is disabled, and its pending deliveries failed. Enable it to receive new events',
      );
      const [listed] = (await service().request('GET', '/api/v1/webhooks/endpoints', { token: apiKey })).body.endpoints;
      assert.deepEqual([listed.status, listed.disabledAt], ['disabled', notice.createdAt]);

      const sentBefore = receiver.received.length;
      await event(service(), accountId);
      assert.equal((await deliveriesOf(service(), apiKey, endpoint.id)).length, 2, 'nothing queued for a disabled endpoint');

      service().clock.advance(60_000);
      const enabled = await service().request('POST', `/api/v1/webhooks/endpoints/${endpoint.id}/enable`, { token: apiKey });
      assert.deepEqual([enabled.status, enabled.body.message, enabled.body.endpoint.status, enabled.body.endpoint.disabledAt], [200, 'Webhook endpoint enabled: new events are delivered to it again', 'active', null]);
      receiver.plan = [];
      await event(service(), accountId);
      await eventually(async () => (await deliveriesOf(service(), apiKey, endpoint.id))[0]?.status === 'delivered', 'a delivery once enabled');
      assert.equal(receiver.received.length - sentBefore, 1);
    });

    test('a delivery whose signing secret was sealed under a previous JWT_SECRET fails once, with its reason, and is never retried', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const { endpoint } = await register(service(), apiKey, ['discovery.completed']);
      const sealedBefore = sealSecret('whsec_c2VjcmV0IG9mIGFub3RoZXIgdGltZQ==', 'the-jwt-secret-this-service-had-before', SECRET_PURPOSE);
      await service().db.update(webhookEndpoints).set({ sealedSecret: sealedBefore }).where(eq(webhookEndpoints.id, endpoint.id));
      const sentBefore = receiver.received.length;
      await event(service(), accountId);
      const [failed] = await eventually(async () => {
        const found = await deliveriesOf(service(), apiKey, endpoint.id);
        return found[0]?.status !== 'pending' && found;
      }, 'the delivery settled');
      const reason = "The endpoint's signing secret cannot be opened (sealed under a previous JWT_SECRET): register the endpoint again";
      assert.deepEqual([failed.status, failed.nextAttemptAt, failed.attempts.map((a: any) => [a.statusCode, a.error])], ['failed', null, [[null, reason]]]);

      service().clock.advance(2 * 24 * 3_600_000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const [after] = await deliveriesOf(service(), apiKey, endpoint.id);
      assert.deepEqual([after.status, after.attempts.length], ['failed', 1]);
      assert.equal(receiver.received.length, sentBefore, 'nothing sent');
    });

    test('an endpoint has one delivery under way at a time, and gets them all, oldest first', async () => {
      const { id: accountId, apiKey } = await service().createAccount();
      const slow = new Receiver();
      await slow.start();
      slow.delayMs = 200;
      try {
        const created = await service().request('POST', '/api/v1/webhooks/endpoints', { token: apiKey, body: { url: slow.url, events: ['discovery.completed'] } });
        assert.equal(created.status, 201, created.text);
        for (const id of ['first', 'second', 'third']) {
          await event(service(), accountId, { id });
          service().clock.advance(1);
        }
        await eventually(async () => slow.received.length === 3, 'three deliveries', 30_000);
        assert.equal(slow.mostAtOnce, 1);
        assert.deepEqual(slow.received.map((r) => JSON.parse(r.body).data.id), ['first', 'second', 'third']);
      } finally {
        await slow.close();
      }
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

    test('60 registrations at once leave exactly 20 endpoints; the others answer 409 and register nothing', async () => {
      const { apiKey } = await service().createAccount();
      const results = await Promise.all(
        Array.from({ length: 60 }, () => service().request('POST', '/api/v1/webhooks/endpoints', { token: apiKey, body: { url: receiver.url, events: ['generation.completed'] } })),
      );
      assert.equal(results.filter((r) => r.status === 201).length, 20);
      for (const refused of results.filter((r) => r.status !== 201)) {
        assert.deepEqual([refused.status, refused.body], [409, { message: 'An account can register at most 20 webhook endpoints' }]);
      }
      assert.equal((await service().request('GET', '/api/v1/webhooks/endpoints', { token: apiKey })).body.endpoints.length, 20);
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

describeOnEachDatabase(
  'Webhook deliveries between accounts',
  (service) => {
    test("one account's never-answering endpoints do not hold back another account's delivery", async () => {
      const fast = new Receiver();
      const hanging = new Receiver();
      hanging.otherwise = 'hang';
      await Promise.all([fast.start(), hanging.start()]);
      try {
        const slowAccount = await service().createAccount();
        const other = await service().createAccount();
        for (let i = 0; i < 20; i++) {
          const res = await service().request('POST', '/api/v1/webhooks/endpoints', { token: slowAccount.apiKey, body: { url: `${hanging.url}/${i}`, events: ['discovery.completed'] } });
          assert.equal(res.status, 201, res.text);
        }
        const res = await service().request('POST', '/api/v1/webhooks/endpoints', { token: other.apiKey, body: { url: fast.url, events: ['discovery.completed'] } });
        assert.equal(res.status, 201, res.text);
        /** From the other account's event to its arrival, in ms. */
        const arrival = async () => {
          const id = randomUUID();
          const queued = performance.now();
          await event(service(), other.id, { id });
          const received = await eventually(async () => fast.received.find((r) => r.body.includes(id)), 'the delivery', 60_000);
          return received.at - queued;
        };
        const alone: number[] = [];
        // Several runs: the loop's tick falls anywhere in each wait.
        for (let run = 0; run < 5; run++) alone.push(await arrival());

        await event(service(), slowAccount.id);
        await eventually(async () => hanging.received.length > 0, 'the slow receivers called');
        const withSlowReceivers = await arrival();
        assert.ok(withSlowReceivers <= 4 * Math.max(...alone), `${Math.round(withSlowReceivers)} ms beside slow receivers, alone ${alone.map(Math.round).join(', ')} ms`);
      } finally {
        await Promise.all([fast.close(), hanging.close()]);
      }
    });
  },
  { env: { CRAWL_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_SECONDS: '10' } },
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
