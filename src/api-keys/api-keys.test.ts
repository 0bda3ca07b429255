import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { eq } from '../db/orm.ts';
import { apiKeys } from '../db/schema.ts';
import { describeOnEachDatabase } from '../testing/service.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const SUMMARY_FIELDS = ['createdAt', 'id', 'lastUsedAt', 'name', 'prefix'];

describeOnEachDatabase('API keys', (service) => {
  const createKey = (token: string, body: unknown) => service().request('POST', '/api/v1/api-keys', { token, body });
  const listKeys = (token: string) => service().request('GET', '/api/v1/api-keys', { token });
  const deleteKey = (token: string, id: string) => service().request('DELETE', `/api/v1/api-keys/${id}`, { token });
  const keyRowsOf = (accountId: string) => service().db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId));
  const works = async (apiKey: string) => (await service().request('GET', '/api/v1/credits/balance/api', { token: apiKey })).status;

  test('creates a key and shows it once: 201 with the key and its summary', async () => {
    const { apiKey } = await service().createAccount();
    const res = await createKey(apiKey, { name: 'CI pipeline' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['apiKey', 'key', 'message', 'success']);
    assert.equal(res.body.success, true);
    assert.equal(typeof res.body.message, 'string');
    assert.match(res.body.key, /^llmstxt_[0-9A-Za-z]{43}$/);
    assert.deepEqual(Object.keys(res.body.apiKey).sort(), SUMMARY_FIELDS);
    assert.equal(res.body.apiKey.name, 'CI pipeline');
    assert.equal(res.body.apiKey.lastUsedAt, null);
    assert.ok(res.body.key.startsWith(res.body.apiKey.prefix) && res.body.apiKey.prefix.length < res.body.key.length - 20);
    assert.ok(!Number.isNaN(Date.parse(res.body.apiKey.createdAt)));
    assert.equal(await works(res.body.key), 200);
  });

  test('lists id, name, prefix, createdAt and lastUsedAt of each key, never the key or its hash', async () => {
    const { apiKey } = await service().createAccount();
    const created = await createKey(apiKey, { name: 'second' });
    const res = await listKeys(apiKey);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['apiKeys']);
    assert.deepEqual(res.body.apiKeys.map((k: any) => k.name), ['default', 'second']);
    for (const key of res.body.apiKeys) assert.deepEqual(Object.keys(key).sort(), SUMMARY_FIELDS);
    assert.deepEqual(res.body.apiKeys[1], created.body.apiKey);
    for (const secret of [apiKey, created.body.key, sha256(apiKey), sha256(created.body.key)]) {
      assert.ok(!res.text.includes(secret), 'the listing shows no key and no hash');
    }
  });

  test('stores a key only as its SHA-256 hash', async () => {
    const { id, apiKey } = await service().createAccount();
    const { body } = await createKey(apiKey, { name: 'stored' });
    const rows = await keyRowsOf(id);
    assert.equal(rows.length, 2);
    const row = rows.find((r) => r.id === body.apiKey.id)!;
    assert.equal(row.keyHash, sha256(body.key));
    assert.equal(rows.find((r) => r.name === 'default')!.keyHash, sha256(apiKey));
    assert.ok(!JSON.stringify(rows).includes(body.key) && !JSON.stringify(rows).includes(apiKey), 'no column holds a plain key');
  });

  test('records when a key was last used', async () => {
    const { apiKey } = await service().createAccount();
    const created = await createKey(apiKey, { name: 'used later' });
    const before = (await listKeys(apiKey)).body.apiKeys.find((k: any) => k.id === created.body.apiKey.id);
    assert.equal(before.lastUsedAt, null);

    assert.equal(await works(created.body.key), 200);
    const after = (await listKeys(apiKey)).body.apiKeys.find((k: any) => k.id === created.body.apiKey.id);
    assert.equal(after.lastUsedAt, service().clock.now().toISOString());
  });

  test('serves the key endpoints to an access token too, and refuses a caller without valid credentials', async () => {
    const { apiKey } = await service().createAccount();
    const { accessToken } = await service().login(apiKey);
    const created = await createKey(accessToken, { name: 'from the dashboard' });
    assert.equal(created.status, 201);
    assert.equal((await listKeys(accessToken)).body.apiKeys.length, 2);
    assert.equal((await deleteKey(accessToken, created.body.apiKey.id)).status, 200);

    for (const token of [undefined, 'llmstxt_unknown', 'not.a.jwt']) {
      for (const res of [
        await service().request('GET', '/api/v1/api-keys', { token }),
        await service().request('POST', '/api/v1/api-keys', { token, body: { name: 'x' } }),
        await service().request('DELETE', `/api/v1/api-keys/${created.body.apiKey.id}`, { token }),
      ]) {
        assert.equal(res.status, 401);
        assert.deepEqual(res.body, { message: 'Unauthorized' });
      }
    }
  });

  test('revokes a key: it stops working at once with 401 Unauthorized, and the others go on', async () => {
    const { id, apiKey } = await service().createAccount();
    const created = await createKey(apiKey, { name: 'to revoke' });
    assert.equal(await works(created.body.key), 200);

    const res = await deleteKey(apiKey, created.body.apiKey.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.success, true);
    assert.equal(typeof res.body.message, 'string');

    const refused = await service().request('GET', '/api/v1/credits/balance/api', { token: created.body.key });
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { message: 'Unauthorized' });
    assert.equal(await works(apiKey), 200);
    assert.deepEqual((await keyRowsOf(id)).map((r) => r.name), ['default']);
  });

  test('a key may revoke itself while another key remains', async () => {
    const { apiKey } = await service().createAccount();
    const other = await createKey(apiKey, { name: 'other' });
    const own = (await listKeys(apiKey)).body.apiKeys.find((k: any) => k.name === 'default');
    assert.equal((await deleteKey(apiKey, own.id)).status, 200);
    assert.equal(await works(apiKey), 401);
    assert.equal(await works(other.body.key), 200);
  });

  test('refuses to revoke the last key of an account with 409, and keeps it', async () => {
    const { id, apiKey } = await service().createAccount();
    const [only] = (await listKeys(apiKey)).body.apiKeys;
    const res = await deleteKey(apiKey, only.id);
    assert.equal(res.status, 409);
    assert.deepEqual(res.body, { message: 'Cannot revoke the last active API key of an account' });
    assert.equal((await keyRowsOf(id)).length, 1);
    assert.equal(await works(apiKey), 200);
  });

  test('60 creations at once leave exactly 20 keys; the others answer 409 and create nothing', async () => {
    const { id, apiKey } = await service().createAccount();
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => createKey(apiKey, { name: `key ${i}` })));
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 19, 'the default key and 19 more');
    for (const refused of results.filter((r) => r.status !== 201)) {
      assert.deepEqual([refused.status, refused.body], [409, { message: 'An account can have at most 20 API keys' }]);
    }
    assert.equal((await keyRowsOf(id)).length, 20);
  });

  test('revoking the last two keys at once leaves exactly one', async () => {
    const { id, apiKey } = await service().createAccount();
    const second = await createKey(apiKey, { name: 'second' });
    const ids = (await listKeys(apiKey)).body.apiKeys.map((k: any) => k.id);
    const { accessToken } = await service().login(second.body.key);
    const results = await Promise.all(ids.map((keyId: string) => deleteKey(accessToken, keyId)));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
    assert.equal((await keyRowsOf(id)).length, 1);
  });

  test("answers 404 API key not found for another account's key, and deletes nothing", async () => {
    const owner = await service().createAccount();
    const intruder = await service().createAccount();
    await createKey(intruder.apiKey, { name: 'spare' });
    const [victimKey] = (await listKeys(owner.apiKey)).body.apiKeys;
    await createKey(owner.apiKey, { name: 'spare' });

    const res = await deleteKey(intruder.apiKey, victimKey.id);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { message: 'API key not found' });
    assert.equal((await keyRowsOf(owner.id)).length, 2);
    assert.equal((await keyRowsOf(intruder.id)).length, 2);
    assert.equal(await works(owner.apiKey), 200);
  });

  test('answers 404 API key not found for an id that does not exist', async () => {
    const { apiKey } = await service().createAccount();
    await createKey(apiKey, { name: 'spare' });
    for (const id of ['00000000-0000-0000-0000-000000000000', 'nope']) {
      const res = await deleteKey(apiKey, id);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { message: 'API key not found' });
    }
  });

  const names: Array<[string, unknown, number]> = [
    ['a name of 1 character', 'a', 201],
    ['a name of 100 characters', 'n'.repeat(100), 201],
    ['a name of 101 characters', 'n'.repeat(101), 400],
    ['an empty name', '', 400],
    ['a blank name', '   ', 400],
    ['a numeric name', 7, 400],
    ['a null name', null, 400],
  ];
  for (const [label, name, status] of names) {
    test(`answers ${status} for ${label}`, async () => {
      const { id, apiKey } = await service().createAccount();
      const res = await createKey(apiKey, { name });
      assert.equal(res.status, status, res.text);
      if (status === 400) {
        assert.match(res.body.message, /^Validation error: name .+/);
        assert.equal((await keyRowsOf(id)).length, 1, 'no key is created');
      }
    });
  }

  test('answers 400 for a missing name or an unknown field, naming it', async () => {
    const { apiKey } = await service().createAccount();
    assert.deepEqual((await createKey(apiKey, {})).body, { message: 'Validation error: name is required' });
    assert.deepEqual((await createKey(apiKey, { name: 'x', scope: 'all' })).body, { message: 'Validation error: unknown property scope in body' });
  });
});
