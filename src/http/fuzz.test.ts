/**
 * Throws a few thousand bad requests at every route the OpenAPI document lists (so routes added
 * later are fuzzed too), from a seeded PRNG: FUZZ_SEED=<n> replays a run, FUZZ_SEED=random picks a
 * new seed, FUZZ_REQUESTS=<n> changes the count. Every request is built to be wrong somewhere the
 * route looks (credentials, body, path parameter), so none may succeed except reads, none may
 * answer 5xx, every error is `{message}`, and nothing in the database changes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { getTableName, is, PgTable } from '../db/orm.ts';
import { SignJWT } from 'jose';
import { request as undiciRequest } from 'undici';
import * as schema from '../db/schema.ts';
import { errors } from '../errors.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_240_917);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const CONCURRENCY = 20;
const API = '/api/v1';
/** Reads: they may succeed whatever junk comes along, but must answer with their documented shape. */
const READS = new Set(['GET', 'HEAD']);

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  text(max: number): string {
    const alphabets = ['abcdefghijklmnopqrstuvwxyz0123456789', ' \t"\'\\/<>{}[]%&?#=;:,.-_+*`~|$@!^()', 'äöüßéñçøå', '💥🚀𝔘𝔫𝔦中文العربيةעברית', '\u0000\u0001\u001f\u007f\u200b\u202e\ufeff\ud800'];
    let out = '';
    const length = this.int(max + 1);
    for (let i = 0; i < length; i++) out += this.pick([...this.pick(alphabets)]);
    return out;
  }
}

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** who the route lets in: none (public), apiKey, jwt or any */
  accepts: 'none' | 'apiKey' | 'jwt' | 'any';
  bodySchema: any | null;
  bodyRequired: boolean;
  responses: Record<string, ValidateFunction | null>;
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** the operation it aims at, when it aims at one */
  operation: Operation | null;
  describe: string;
}

interface Credentials {
  apiKey: string;
  accessToken: string;
  /** presented with the right shape but refused: unknown, tampered, expired, wrong scheme… */
  refused: string[];
}

/** Replaces `#/components/schemas/X` references by the schemas themselves, for a standalone validator. */
function inlineRefs(schema: any, doc: any): any {
  if (Array.isArray(schema)) return schema.map((s) => inlineRefs(s, doc));
  if (!schema || typeof schema !== 'object') return schema;
  if (typeof schema.$ref === 'string') return inlineRefs(doc.components.schemas[schema.$ref.split('/').pop()], doc);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlineRefs(v, doc)]));
}

function operationsOf(doc: any): Operation[] {
  const ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const security: Array<Record<string, unknown>> | undefined = op.security;
      const schemes = new Set((security ?? []).flatMap((s) => Object.keys(s)));
      const accepts = !security ? 'none' : schemes.has('apiKey') && schemes.has('accessToken') ? 'any' : schemes.has('apiKey') ? 'apiKey' : 'jwt';
      const responses: Record<string, ValidateFunction | null> = {};
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema;
        responses[status] = schema ? ajv.compile(inlineRefs(schema, doc)) : null;
      }
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name),
        queryParams: (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
        accepts,
        bodySchema: op.requestBody ? inlineRefs(op.requestBody.content['application/json']?.schema ?? {}, doc) : null,
        bodyRequired: op.requestBody?.required === true,
        responses,
      });
    }
  }
  return operations;
}

const ODD_PATH_VALUES = [
  ' ', '%20', '%00', '%0a', '%', '%zz', '%E0%A4%A', '%F0%9F%92%A5', '💥', '..%2F..%2Fhealth', '%2e%2e', 'a%2Fb', '-1', '0', 'null',
  'undefined', '[object Object]', "' OR '1'='1", '${jndi:ldap://x}', '<script>', '__proto__', 'constructor', 'x'.repeat(100),
  'x'.repeat(101), 'x'.repeat(3000), '00000000-0000-0000-0000-000000000000', ';', '*', '~', 'a.b', 'A', '1e309',
];
const ODD_QUERY_NAMES = ['foo', '__proto__', '__proto__[admin]', 'constructor[prototype][admin]', 'limit[]', 'a.b', '', '%00', '💥', 'x'.repeat(300)];
const ODD_QUERY_VALUES = [
  '', '-1', '0', '-0', '1', '20', '100', '101', '1e309', '-Infinity', '100000000000000000000', '9223372036854775808', '0x10', '1.5', 'NaN', 'Infinity', 'abc', 'true', 'null', '[]', '{}', '%', '%zz', '%00',
  '💥', "' OR 1=1 --", 'purchase', 'usage', 'USAGE', 'x'.repeat(5000),
];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'APPLICATION/JSON', 'application/jsonx',
  'application/vnd.api+json', 'text/plain', 'text/plain; charset=latin1', 'application/xml', 'multipart/form-data; boundary=x',
  'application/octet-stream', 'garbage', ';;;', 'application/json;;', '',
];
const EXTRA_HEADERS: Array<[string, (rng: Rng) => string]> = [
  ['x-forwarded-for', (r) => r.pick(['1.2.3.4', '::1', 'garbage', '1.2.3.4, 5.6.7.8', '999.999.999.999', ''])],
  ['accept', (r) => r.pick(['*/*', 'text/html', 'application/xml', 'garbage/', ''])],
  ['accept-encoding', (r) => r.pick(['gzip', 'br', 'deflate', 'identity;q=0', 'x'])],
  ['content-encoding', (r) => r.pick(['gzip', 'br', 'deflate', 'x-unknown'])],
  ['origin', (r) => r.pick(['https://evil.example', 'null'])],
  ['cookie', () => 'session=1; __proto__=x'],
  ['x-http-method-override', (r) => r.pick(['DELETE', 'PUT'])],
  ['if-none-match', () => '"x"'],
  ['range', () => 'bytes=0-1'],
  ['x-request-id', (r) => r.text(40)],
];

/** encodeURIComponent that does not throw on a lone surrogate. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

function latin1(text: string): string {
  return [...text].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) <= 0xff && c.charCodeAt(0) !== 0x7f).join('');
}

/** JSON values of some type other than the schema's, by the schema's type. */
const WRONG_TYPED: Record<string, unknown[]> = {
  string: [42, -1.5, true, null, [], {}, ['a'], { x: { y: [null] } }],
  number: ['5', '', null, true, [], {}],
  integer: ['5', 1.5, null, true, [], {}],
  boolean: ['true', 0, 1, null, [], {}],
  object: ['x', 1, null, true, [{ nested: { deeper: [] } }]],
  array: ['x', 1, null, {}],
};

function plausibleValue(rng: Rng, schema: any): unknown {
  switch (schema?.type) {
    case 'string':
      return rng.pick([rng.text(20), rng.text(300), 'https://example.com/', 'x@example.com', '']);
    case 'integer':
    case 'number':
      return rng.pick([0, 1, -1, 1001, 2 ** 53, 1e20, -1e20, 50]);
    case 'boolean':
      return rng.chance(0.5);
    default:
      return rng.text(10);
  }
}

/** A body that an object schema must refuse, as the bytes to send. */
function invalidBody(rng: Rng, schema: any, required: boolean): string | undefined {
  const properties: Record<string, any> = schema?.properties ?? {};
  const typed = Object.entries(properties).filter(([, s]) => WRONG_TYPED[s?.type]);
  const base = () => Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, plausibleValue(rng, s)]));
  const choice = rng.int(10);
  if (choice <= 2 && typed.length > 0) {
    const [name, propertySchema] = rng.pick(typed);
    return JSON.stringify({ ...base(), [name]: rng.pick(WRONG_TYPED[propertySchema.type]) });
  }
  if (choice === 3 && schema?.additionalProperties === false) {
    return JSON.stringify({ ...base(), [rng.pick(['constructor', 'prototype', 'isAdmin', 'plan', 'creditBalance', rng.text(8) || 'k'])]: rng.pick([1, 'x', null, {}]) });
  }
  if (choice === 4) {
    const inner = JSON.stringify(base()).slice(1, -1);
    return rng.pick([
      `{"__proto__":{"isAdmin":true}${inner ? ',' + inner : ''}}`,
      `{"constructor":{"prototype":{"isAdmin":true}}${inner ? ',' + inner : ''}}`,
      `{${inner}${inner ? ',' : ''}"a":{"__proto__":{"x":1}}}`,
    ]);
  }
  if (choice === 5) return JSON.stringify(rng.pick([null, 0, -1, 'text', '', true, [], [base()], 1e308]));
  if (choice === 6) {
    const depth = rng.pick([50, 500, 5000]);
    return rng.chance(0.5) ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  }
  if (choice === 7) {
    const text = JSON.stringify(base());
    return rng.pick([text.slice(0, Math.max(1, rng.int(text.length))), text + '}', `${text},`, text.replace(/"/g, "'"), '\ufeff' + text + 'x', 'NaN', '{"a":1,}', `x${rng.text(50)}`]);
  }
  if (choice === 8 && required) return undefined;
  const strings = Object.entries(properties).filter(([, s]) => s?.type === 'string');
  if (choice === 8 && strings.length > 0) {
    const [name] = rng.pick(strings);
    return JSON.stringify({ ...base(), [name]: `${rng.text(5)}\u0000${rng.text(5)}` });
  }
  if (rng.chance(0.1)) return JSON.stringify({ ...base(), filler: 'x'.repeat(1024 * 1024 + 10) });
  return JSON.stringify(rng.pick([null, [], 'x'.repeat(10_000), { [rng.text(5)]: rng.text(5) }].map((v) => [v])));
}

function credentialFor(rng: Rng, operation: Operation | null, creds: Credentials, mayBeAccepted: boolean): string | undefined {
  const accepted = (token: string | undefined) =>
    operation !== null &&
    ((operation.accepts === 'none') ||
      (token === creds.apiKey && (operation.accepts === 'apiKey' || operation.accepts === 'any')) ||
      (token === creds.accessToken && (operation.accepts === 'jwt' || operation.accepts === 'any')));
  const roll = rng.next();
  const token = roll < 0.3 ? creds.apiKey : roll < 0.6 ? creds.accessToken : roll < 0.75 ? undefined : rng.pick(creds.refused);
  if (mayBeAccepted || !accepted(token)) return token;
  return rng.chance(0.3) ? undefined : rng.pick(creds.refused);
}

function fillPath(rng: Rng, operation: Operation, foreignIds: string[]): string {
  let path = operation.path;
  for (const name of operation.pathParams) {
    let value = rng.chance(0.15) ? rng.pick(foreignIds) : rng.chance(0.8) ? rng.pick(ODD_PATH_VALUES) : encode(rng.text(30));
    // A value the URL parser would fold into `..` or `.` must not walk the request onto another route.
    if (/^(\.|%2e){1,2}$/i.test(value) || value === '') value = `x${value}`;
    path = path.replace(`{${name}}`, value.replace(/[/?#]/g, encode));
  }
  return path;
}

function queryString(rng: Rng, operation: Operation | null): string {
  if (rng.chance(0.4)) return '';
  const pairs: string[] = [];
  const names = [...(operation?.queryParams ?? []), ...ODD_QUERY_NAMES];
  for (let i = 0, n = 1 + rng.int(4); i < n; i++) {
    const name = rng.pick(names);
    const value = rng.chance(0.2) ? rng.text(20) : rng.pick(ODD_QUERY_VALUES);
    pairs.push(rng.chance(0.5) ? `${encode(name)}=${encode(value)}` : `${name}=${value}`.replace(/[#\s]/g, '+'));
  }
  return '?' + pairs.join('&');
}

function generate(rng: Rng, operations: Operation[], creds: Credentials, foreignIds: string[]): FuzzRequest {
  const headers: Record<string, string> = {};
  for (let i = 0, n = rng.int(3); i < n; i++) {
    const [name, value] = rng.pick(EXTRA_HEADERS);
    headers[name] = latin1(value(rng));
  }
  // No credentials is sometimes no header, sometimes a malformed one.
  const setAuth = (token: string | undefined) => {
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    else if (rng.chance(0.3)) {
      headers.authorization = latin1(rng.pick(['', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `Token ${creds.apiKey}`, `Bearer ${creds.apiKey} extra`, `Bearer ${creds.apiKey},Bearer ${creds.accessToken}`, rng.text(60)]));
    }
  };

  // Now and then: a method the path does not serve, or a path that does not exist.
  if (rng.chance(0.05)) {
    const path = rng.chance(0.5) ? `${API}/${encode(rng.text(20)) || 'x'}` : rng.pick(operations).path.replace(/\{\w+\}/g, 'x');
    const served = operations.filter((o) => o.path.replace(/\{\w+\}/g, 'x') === path).map((o) => o.method);
    const method = rng.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => !served.includes(m)));
    setAuth(rng.chance(0.5) ? creds.apiKey : creds.accessToken);
    return { method, path: path + queryString(rng, null), headers, operation: null, describe: `${method} ${path} (not served) headers=${JSON.stringify(headers).slice(0, 300)}` };
  }

  const operation = rng.pick(operations);
  const path = fillPath(rng, operation, foreignIds) + queryString(rng, operation);
  let body: string | undefined;
  let wrongSomewhere = READS.has(operation.method) || operation.pathParams.length > 0;
  if (!READS.has(operation.method)) {
    if (operation.bodySchema) {
      body = invalidBody(rng, operation.bodySchema, operation.bodyRequired);
      wrongSomewhere = true;
    } else if (rng.chance(0.5)) {
      body = JSON.stringify({ [rng.text(6)]: rng.text(10) });
    }
    if (body !== undefined || rng.chance(0.3)) headers['content-type'] = rng.chance(0.6) ? 'application/json' : latin1(rng.pick(CONTENT_TYPES));
  }
  // A route with nothing else to get wrong (no body to validate, no id to miss) gets refused credentials.
  setAuth(credentialFor(rng, operation, creds, wrongSomewhere));
  if (!wrongSomewhere && operation.accepts === 'none') return generate(rng, operations, creds, foreignIds);
  const sizeNote = body && body.length > 200 ? `<${body.length} bytes>` : body;
  return {
    method: operation.method,
    path,
    headers,
    body,
    operation,
    describe: `${operation.method} ${path.slice(0, 200)} headers=${JSON.stringify(headers).slice(0, 300)} body=${sizeNote}`,
  };
}

async function send(baseUrl: string, request: FuzzRequest) {
  let response: Awaited<ReturnType<typeof undiciRequest>>;
  try {
    response = await undiciRequest(baseUrl + request.path, { method: request.method as 'GET', headers: request.headers, body: request.body });
  } catch (error: any) {
    // A request the client itself will not send (an illegal header value) tells nothing about the server.
    if (error?.code === 'UND_ERR_INVALID_ARG' || error instanceof TypeError) return null;
    throw error;
  }
  const text = await response.body.text();
  return { status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), text };
}

/** What bad input must not change: every row of every table, but when a key was last used. */
async function snapshot(service: TestService): Promise<Record<string, string[]>> {
  const tables = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable));
  const rows: Record<string, string[]> = {};
  for (const table of tables) {
    const name = getTableName(table);
    rows[name] = (await service.db.select().from(table))
      .map((row: Record<string, unknown>) => JSON.stringify(name === 'api_keys' ? { ...row, lastUsedAt: undefined } : row))
      .sort();
  }
  return rows;
}

async function refusedCredentials(service: TestService, apiKey: string, accessToken: string, victimId: string, victimRefresh: string): Promise<string[]> {
  const secret = new TextEncoder().encode(service.deps.config.jwtSecret);
  const now = Math.floor(service.clock.now().getTime() / 1000);
  const [header, payload, signature] = accessToken.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return [
    `llmstxt_${'0'.repeat(43)}`,
    apiKey.slice(0, -1) + (apiKey.endsWith('a') ? 'b' : 'a'),
    apiKey + 'x',
    `llmstxt_${'A'.repeat(300)}`,
    `${header}.${b64({ ...claims, sub: victimId })}.${signature}`,
    `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, sub: victimId })}.`,
    await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(victimId).setIssuedAt(now).setExpirationTime(now + 900).sign(new TextEncoder().encode('another-secret-of-at-least-32-characters')),
    await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(claims.sub).setIssuedAt(now - 2000).setExpirationTime(now - 1100).sign(secret),
    await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now).setExpirationTime(now + 900).sign(secret),
    victimRefresh,
    accessToken.replace(/\./g, ''),
    'x'.repeat(5000),
    'null',
  ];
}

describeOnEachDatabase('Fuzzing every route with bad requests', (service) => {
  test(`answers ${REQUESTS} bad requests without a 5xx, each with {message} or a documented success, and writes nothing`, async (t) => {
    t.diagnostic(`fuzz seed ${SEED}: FUZZ_SEED=${SEED} replays this run`);
    const owner = await service().createAccount();
    const victim = await service().createAccount();
    const spare = await service().request('POST', `${API}/api-keys`, { token: owner.apiKey, body: { name: 'spare' } });
    assert.equal(spare.status, 201, 'the owner holds two keys, so a revocation could succeed if bad input were let through');
    const { accessToken } = await service().login(owner.apiKey);
    const victimSession = await service().login(victim.apiKey);
    await service().request('POST', `${API}/api-keys`, { token: victim.apiKey, body: { name: 'victim spare' } });
    const victimKeyIds = (await service().request('GET', `${API}/api-keys`, { token: victim.apiKey })).body.apiKeys.map((k: any) => k.id);
    const balanceBefore = (await service().request('GET', `${API}/credits/balance`, { token: accessToken })).body;

    const doc = (await service().request('GET', `${API}/openapi.json`)).body;
    const operations = operationsOf(doc);
    assert.ok(operations.length >= 16, `the document lists ${operations.length} operations`);
    const creds: Credentials = {
      apiKey: owner.apiKey,
      accessToken,
      refused: await refusedCredentials(service(), owner.apiKey, accessToken, victim.id, victimSession.refreshToken),
    };
    const rng = new Rng(SEED);
    const requests = Array.from({ length: REQUESTS }, () => generate(rng, operations, creds, [...victimKeyIds, victim.id]));
    const before = await snapshot(service());

    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let skipped = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++];
        const response = await send(service().baseUrl, request).catch((error) => ({ error: String(error?.cause ?? error) }));
        if (response === null) {
          skipped++;
          continue;
        }
        if ('error' in response) {
          problems.push(`no answer (${response.error}): ${request.describe}`);
          continue;
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problem = judge(request, response);
        if (problem) problems.push(`${problem}: ${request.describe} -> ${response.status} ${response.text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, not sendable: ${skipped}`);
    assert.equal(problems.length, 0, `seed ${SEED}: ${problems.length} bad answers, the first ones:\n${problems.slice(0, 10).join('\n')}`);
    assert.ok(skipped < REQUESTS / 10, `${skipped} requests could not be sent`);
    for (const status of [200, 400, 401, 404]) assert.ok(statuses.get(status), `the run produced some ${status}s`);

    assert.deepEqual(await snapshot(service()), before, `seed ${SEED}: bad input changed the database`);
    const balanceAfter = await service().request('GET', `${API}/credits/balance`, { token: accessToken });
    assert.equal(balanceAfter.status, 200, 'the session survived');
    assert.deepEqual(balanceAfter.body, balanceBefore);
  });
});

/**
 * Every message src/errors.ts can produce, by status: factories with arguments become patterns
 * (`Validation error: .+`, `Route .+ .+ not found`, …).
 */
const catalogue: Array<{ status: number; pattern: RegExp }> = Object.values(errors).map((factory) => {
  const placeholders = Array.from({ length: factory.length }, (_, i) => `\u0001${i}\u0001`);
  const error = (factory as (...args: string[]) => { statusCode: number; message: string })(...placeholders);
  let source = error.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const placeholder of placeholders) source = source.replace(placeholder, '.+');
  return { status: error.statusCode, pattern: new RegExp(`^${source}$`, 's') };
});

/** Why an answer is wrong, or null when it is fine. */
function judge(request: FuzzRequest, response: { status: number; contentType: string; text: string }): string | null {
  if (response.status >= 500) return 'server error';
  if (request.method === 'HEAD') return null; // no body to judge
  if (response.status >= 200 && response.status < 300) {
    if (!request.operation || !READS.has(request.method)) return 'bad input was accepted';
    const validate = request.operation.responses[String(response.status)];
    if (validate === undefined) return 'undocumented success status';
    if (validate === null) return null;
    if (!response.contentType.startsWith('application/json')) return 'success without JSON';
    return validate(JSON.parse(response.text)) ? null : `success body off its schema (${JSON.stringify(validate.errors?.[0])})`;
  }
  if (!response.contentType.startsWith('application/json')) return 'error without JSON';
  let body: any;
  try {
    body = JSON.parse(response.text);
  } catch {
    return 'error body is not JSON';
  }
  if (typeof body?.message !== 'string' || body.message === '') return 'error without a message';
  const known = catalogue.some(({ status, pattern }) => status === response.status && pattern.test(body.message));
  return known ? null : 'a status and message that src/errors.ts does not have';
}
