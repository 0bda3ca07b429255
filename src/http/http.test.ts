import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eq } from '../db/orm.ts';
import { accounts } from '../db/schema.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

const API = '/api/v1';

/**
 * Every method + path the app serves, read from Fastify's route tree (`printRoutes`), in OpenAPI's
 * `{param}` spelling. HEAD twins of GET routes are Fastify's own and left out.
 */
function servedRoutes(service: TestService): Set<string> {
  const served = new Set<string>();
  const prefixes: string[] = [];
  for (const line of service.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    const path = (prefixes[depth - 1] ?? '') + match[2];
    prefixes[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) {
      if (method !== 'HEAD' && !path.endsWith('*')) served.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return served;
}

describeOnEachDatabase('The HTTP surface', (service, kind) => {
  describe('errors', () => {
    test('answers an unknown route with 404 and a JSON message', async () => {
      for (const [method, path] of [
        ['GET', `${API}/nothing-here`],
        ['POST', `${API}/credits/packages`],
        ['GET', '/nothing-here'], // '/' is the web dashboard
        ['DELETE', `${API}/api-keys`],
      ]) {
        const res = await service().request(method, path);
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        assert.deepEqual(res.body, { message: `Route ${method} ${path} not found` });
      }
    });

    test('answers malformed JSON with 400 "Validation error: …"', async () => {
      for (const rawBody of ['{"email":', '{email: "a@b.co"}', "{'a': 1}", '[1,]', 'nul', '{"a":1}}']) {
        const res = await service().request('POST', `${API}/accounts`, { rawBody, headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 400, rawBody);
        assert.deepEqual(Object.keys(res.body), ['message']);
        assert.match(res.body.message, /^Validation error: .+/);
      }
    });

    test('refuses prototype-pollution keys in a JSON body with 400', async () => {
      for (const rawBody of ['{"__proto__":{"plan":"agency"},"email":"p@example.com","firstName":"P"}', '{"constructor":{"prototype":{"plan":"agency"}},"email":"p@example.com","firstName":"P"}']) {
        const res = await service().request('POST', `${API}/accounts`, { rawBody, headers: { 'content-type': 'application/json' } });
        assert.equal(res.status, 400);
        assert.match(res.body.message, /^Validation error: .+/);
      }
    });

    test('a value outside a fixed list is refused with the values it may take', async () => {
      const { apiKey } = await service().createAccount();
      const res = await service().request('POST', `${API}/generate`, { token: apiKey, body: { url: 'https://example.com', options: { generationMethod: 'fancy' } } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { message: 'Validation error: options.generationMethod must be one of simple, enhanced' });
    });

    test('answers a body over 1 MB with 413 and a JSON message', async () => {
      const rawBody = JSON.stringify({ email: 'big@example.com', firstName: 'x'.repeat(1024 * 1024) });
      const res = await service().request('POST', `${API}/accounts`, { rawBody, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 413);
      assert.deepEqual(res.body, { message: 'Request body is too large' });
    });

    test('answers an unsupported content type with 415 and a JSON message', async () => {
      const res = await service().request('POST', `${API}/accounts`, { rawBody: '<account/>', headers: { 'content-type': 'application/xml' } });
      assert.equal(res.status, 415);
      assert.deepEqual(res.body, { message: 'Unsupported Content-Type' });
    });

    test('refuses a NUL character in any text with 400 "Validation error: …", as the database cannot store it', async () => {
      const { apiKey } = await service().createAccount();
      const cases: Array<[string, string, unknown, string]> = [
        ['POST', `${API}/api-keys`, { name: 'a\u0000b' }, 'Validation error: name must not contain NUL characters'],
        ['PUT', `${API}/accounts/profile`, { firstName: 'Ada\u0000' }, 'Validation error: firstName must not contain NUL characters'],
        ['POST', `${API}/accounts`, { email: 'nul@example.com', firstName: '\u0000' }, 'Validation error: firstName must not contain NUL characters'],
        ['DELETE', `${API}/api-keys/a%00b`, undefined, 'Validation error: id must not contain NUL characters'],
      ];
      for (const [method, path, body, message] of cases) {
        const res = await service().request(method, path, { token: apiKey, body });
        assert.equal(res.status, 400, `${method} ${path}`);
        assert.deepEqual(res.body, { message });
      }
    });

    test('answers a badly encoded path or an over-long path parameter with 400 "Validation error: …"', async () => {
      const { apiKey } = await service().createAccount();
      for (const path of [`${API}/api-keys/%`, `${API}/api-keys/%E0%A4%A`, `${API}/api-keys/${'x'.repeat(101)}`, `${API}/%zz`]) {
        const res = await service().request('DELETE', path, { token: apiKey });
        assert.equal(res.status, 400, path);
        assert.deepEqual(Object.keys(res.body), ['message']);
        assert.match(res.body.message, /^Validation error: .+/);
      }
    });
  });

  describe('OpenAPI and docs', () => {
    test('serves an OpenAPI 3.1 document that lists every route of the API', async () => {
      const res = await service().request('GET', `${API}/openapi.json`);
      assert.equal(res.status, 200);
      assert.equal(res.body.openapi, '3.1.0');
      assert.equal(typeof res.body.info.title, 'string');

      const served = [...servedRoutes(service())].filter((r) => r.split(' ')[1].startsWith(`${API}/`) && r !== `GET ${API}/openapi.json`);
      const documented = new Set<string>();
      for (const [path, operations] of Object.entries<Record<string, unknown>>(res.body.paths)) {
        for (const method of Object.keys(operations)) {
          // printRoutes does not spell a wildcard route (`…/pages/*`, documented as `{*}`) whole: asked of the router instead.
          if (path.endsWith('{*}')) {
            const url = path.replace(/\{\*\}$/, '*').replace(/\{(\w+)\}/g, ':$1');
            assert.ok(service().app.hasRoute({ method: method.toUpperCase() as 'GET', url }), `${method.toUpperCase()} ${path} is served`);
          } else if (method === 'head') assert.ok(served.includes(`GET ${path}`), `HEAD ${path} is served`);
          // HEAD is served with every GET; a documented one only has to be served.
          else documented.add(`${method.toUpperCase()} ${path}`);
        }
      }
      assert.ok(served.length >= 16, `found ${served.length} routes`);
      assert.deepEqual([...documented].sort(), served.sort());
    });

    test("documents each operation's error answers with the error body's shape", async () => {
      const { body: doc } = await service().request('GET', `${API}/openapi.json`);
      const errorStatuses = (method: string, path: string) =>
        Object.keys(doc.paths[`${API}${path}`][method].responses).filter((status) => /^[45]/.test(status));
      assert.deepEqual(doc.components.schemas.ErrorBody.required, ['message']);
      for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
        for (const [method, operation] of Object.entries<any>(operations)) {
          const errors = Object.entries<any>(operation.responses).filter(([status]) => /^[45]/.test(status));
          assert.ok(errors.length > 0, `${method} ${path} documents its errors`);
          for (const [status, answer] of errors) {
            assert.equal(answer.content['application/json'].schema.$ref, '#/components/schemas/ErrorBody', `${method} ${path} ${status}`);
            assert.ok(answer.description.length > 0);
          }
        }
      }
      assert.deepEqual(errorStatuses('post', '/generate'), ['400', '401', '402', '409', '422', '429']);
      assert.deepEqual(errorStatuses('delete', '/generate/{jobId}'), ['400', '401', '403', '404', '409', '429']);
      assert.deepEqual(errorStatuses('post', '/accounts'), ['400', '409', '429']);
      assert.deepEqual(errorStatuses('get', '/credits/verify-session/{sessionId}/api'), ['400', '401', '403', '404', '429', '502']);
      assert.deepEqual(errorStatuses('get', '/file/{siteId}'), ['400', '404', '429']);
      assert.deepEqual(errorStatuses('get', '/health'), ['429']);
      assert.deepEqual(errorStatuses('post', '/webhooks/stripe'), ['400', '502']);
    });

    test('documents request schemas, path parameters and who may call each operation', async () => {
      const { body: doc } = await service().request('GET', `${API}/openapi.json`);
      const op = (method: string, path: string) => doc.paths[`${API}${path}`][method];
      const jsonBody = (method: string, path: string) => op(method, path).requestBody?.content['application/json'].schema;

      assert.deepEqual(jsonBody('post', '/accounts').required, ['email', 'firstName']);
      assert.deepEqual(Object.keys(jsonBody('post', '/accounts').properties).sort(), ['company', 'email', 'firstName', 'lastName']);
      assert.deepEqual(Object.keys(jsonBody('put', '/accounts/profile').properties).sort(), ['company', 'firstName', 'lastName']);
      assert.deepEqual(jsonBody('post', '/auth/refresh').required, ['refreshToken']);
      assert.deepEqual(jsonBody('post', '/api-keys').required, ['name']);
      for (const path of ['/credits/history', '/credits/history/api']) {
        const params = Object.fromEntries(op('get', path).parameters.map((p: any) => [p.name, p]));
        assert.deepEqual(Object.keys(params).sort(), ['limit', 'offset', 'type']);
        assert.ok(Object.values(params).every((p: any) => p.in === 'query'));
        assert.equal(params.limit.schema.maximum, 100);
        assert.equal(params.limit.schema.default, 20);
      }

      for (const [path, operations] of Object.entries<Record<string, any>>(doc.paths)) {
        const templated = [...path.matchAll(/\{(\w+|\*)\}/g)].map((m) => m[1]);
        for (const [method, operation] of Object.entries(operations)) {
          const where = `${method.toUpperCase()} ${path}`;
          const pathParams = (operation.parameters ?? []).filter((p: any) => p.in === 'path');
          assert.deepEqual(pathParams.map((p: any) => p.name).sort(), templated.sort(), `${where} documents its path parameters`);
          assert.ok(pathParams.every((p: any) => p.required && p.schema), `${where} path parameters are required and typed`);
          assert.ok(Object.keys(operation.responses).some((s) => /^2\d\d$/.test(s)), `${where} documents its success`);
          if (operation.requestBody) assert.equal(operation.requestBody.content['application/json'].schema.type, 'object', where);
          if (path.endsWith('/api') && doc.paths[path.slice(0, -4)]) {
            assert.deepEqual(operation.security, [{ apiKey: [] }], `${where} takes an API key`);
            assert.deepEqual(doc.paths[path.slice(0, -4)][method].security, [{ accessToken: [] }], `its twin takes an access token`);
          }
        }
      }
      const publicOperations = Object.entries<Record<string, any>>(doc.paths)
        .flatMap(([path, ops]) => Object.entries(ops).filter(([, o]) => !o.security).map(([m]) => `${m.toUpperCase()} ${path}`));
      for (const open of ['POST /accounts', 'GET /credits/packages', 'POST /auth/refresh']) {
        assert.ok(publicOperations.includes(open.replace(' ', ` ${API}`)), `${open} is public`);
      }
      assert.ok(!publicOperations.includes(`DELETE ${API}/accounts`));
      assert.deepEqual(op('delete', '/accounts').security, [{ apiKey: [] }]);
    });

    test('serves the interactive documentation as HTML at /docs', async () => {
      const res = await service().request('GET', '/docs');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(res.text, /<html/i);
    });
  });

  describe('health', () => {
    test('GET /health answers that the process is up', async () => {
      const res = await service().request('GET', `${API}/health`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 'ok' });
    });

    test('GET /ready answers that the database answers, naming it', async () => {
      const res = await service().request('GET', `${API}/ready`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 'ready', database: kind });
    });
  });
});

describeOnEachDatabase(
  'Rate limits',
  (service) => {
    let alice: { apiKey: string };
    let bob: { apiKey: string };

    test('answers the fourth sign-up from one address within a minute with 429 and Retry-After', async () => {
      const signUps = [];
      for (let i = 0; i < 3; i++) {
        const res = await service().request('POST', `${API}/accounts`, { body: { email: `rate-${i}@example.com`, firstName: 'R' } });
        assert.equal(res.status, 201, res.text);
        signUps.push(res.body);
      }
      [alice, bob] = signUps;
      const refused = await service().request('POST', `${API}/accounts`, { body: { email: 'rate-3@example.com', firstName: 'R' } });
      assert.equal(refused.status, 429);
      assertRateLimited(refused);
      assert.equal(await countAccountsWithEmail(service(), 'rate-3@example.com'), 0);
      // Without TRUST_PROXY a client cannot pick its own address with X-Forwarded-For.
      const spoofed = await service().request('POST', `${API}/accounts`, {
        body: { email: 'rate-4@example.com', firstName: 'R' },
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
      assert.equal(spoofed.status, 429);
    });

    test("answers a caller's sixth call within a minute with 429 and Retry-After, on any endpoint, and leaves other callers alone", async () => {
      for (let i = 0; i < 5; i++) {
        const res = await service().request('GET', `${API}/credits/balance/api`, { token: alice.apiKey });
        assert.equal(res.status, 200, `call ${i + 1}`);
      }
      const sixth = await service().request('GET', `${API}/credits/balance/api`, { token: alice.apiKey });
      assert.equal(sixth.status, 429);
      assertRateLimited(sixth);
      const elsewhere = await service().request('GET', `${API}/api-keys`, { token: alice.apiKey });
      assert.equal(elsewhere.status, 429, 'the budget is per caller, not per endpoint');

      const other = await service().request('GET', `${API}/credits/balance/api`, { token: bob.apiKey });
      assert.equal(other.status, 200, 'another caller is not affected');
      assert.equal(other.body.balance, 20);
    });

    test('counts refused credentials too: a sixth try of one unknown key within a minute answers 429', async () => {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await service().request('GET', `${API}/credits/balance/api`, { token: 'llmstxt_guessed' })).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429]);
    });

    test('answers the fourth login attempt from one address within a minute with 429, even with wrong keys', async () => {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await service().request('POST', `${API}/auth/login`, { token: `llmstxt_guess${i}` })).status);
      assert.deepEqual(statuses, [401, 401, 401]);
      const fourth = await service().request('POST', `${API}/auth/login`, { token: bob.apiKey });
      assert.equal(fourth.status, 429);
      assertRateLimited(fourth);
    });
  },
  { env: { RATE_LIMIT_PER_CALLER: '5', RATE_LIMIT_PUBLIC_PER_IP: '3' } },
);

function assertRateLimited(res: { headers: Headers; body: any }): void {
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${res.headers.get('retry-after')}`);
  assert.deepEqual(res.body, { message: `Too many requests. Retry in ${retryAfter} seconds.` });
}

async function countAccountsWithEmail(service: TestService, email: string): Promise<number> {
  return (await service.db.select().from(accounts).where(eq(accounts.email, email))).length;
}
