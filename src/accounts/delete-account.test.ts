import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { count, eq, getTableColumns, getTableName, inArray, is, PgTable, type SQL } from '../db/orm.ts';
import { spendCredits } from '../credits/ledger.ts';
import * as schema from '../db/schema.ts';
import {
  accounts,
  checkoutSessions,
  discoveredUrls,
  discoveryJobs,
  generationJobs,
  mappedUrls,
  siteFileParts,
  siteFiles,
  sites,
  siteSchedules,
  subscriptions,
  webhookDeliveries,
  webhookEndpoints,
} from '../db/schema.ts';
import { describeOnEachDatabase } from '../testing/service.ts';

interface Owner {
  id: string;
  apiKey: string;
  siteIds: string[];
  discoveryIds: string[];
  endpointIds: string[];
}

/**
 * Tables whose rows belong to no account: the service's record of processed provider events, and
 * the `local` payment provider's own store (the provider's side, like Stripe's records, which the
 * service's account deletion does not reach).
 */
const UNOWNED_TABLES = new Set(['webhook_events', 'local_pay_objects', 'local_pay_events', 'local_pay_settings']);

/** Tables that belong to an account through a parent row rather than an account_id column. */
const ownedThroughParent: Record<string, (owner: Owner) => SQL> = {
  accounts: (o) => eq(accounts.id, o.id),
  site_files: (o) => inArray(siteFiles.siteId, o.siteIds),
  site_file_parts: (o) => inArray(siteFileParts.siteId, o.siteIds),
  mapped_urls: (o) => inArray(mappedUrls.siteId, o.siteIds),
  discovered_urls: (o) => inArray(discoveredUrls.discoveryId, o.discoveryIds),
  webhook_deliveries: (o) => inArray(webhookDeliveries.endpointId, o.endpointIds),
  site_schedules: (o) => inArray(siteSchedules.siteId, o.siteIds),
};

const allTables: PgTable[] = Object.values(schema as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable));

describeOnEachDatabase('DELETE /accounts', (service) => {
  const deleteAccount = (token?: string) => service().request('DELETE', '/api/v1/accounts', { token });

  /** One row or more in every table an account can own: through the API where it can, directly where it cannot yet. */
  async function accountWithEverything(): Promise<Owner> {
    const { id, apiKey, email } = await service().createAccount();
    const db = service().db;
    assert.equal((await service().request('POST', '/api/v1/auth/login/email', { body: { email } })).status, 202);
    const second = await service().request('POST', '/api/v1/api-keys', { token: apiKey, body: { name: 'second' } });
    assert.equal(second.status, 201);
    const session = await service().login(apiKey);
    assert.equal((await service().request('POST', '/api/v1/auth/refresh', { body: { refreshToken: session.refreshToken } })).status, 200);

    const siteId = randomUUID();
    const discoveryId = randomUUID();
    const url = `https://${id}.example.com/`;
    await db.insert(sites).values({ id: siteId, accountId: id, url, status: 'completed' });
    await db.insert(siteFiles).values([
      { siteId, kind: 'llms', etag: '"a"' },
      { siteId, kind: 'full', etag: '"b"' },
    ]);
    await db.insert(siteFileParts).values([
      { siteId, kind: 'llms', part: 0, content: '# Example' },
      { siteId, kind: 'full', part: 0, content: '# Example\n\nAll of it' },
    ]);
    await db.insert(generationJobs).values({ id: randomUUID(), accountId: id, siteId, url, options: { maxUrls: 10 }, creditsReserved: 1 });
    await db.insert(mappedUrls).values({ id: randomUUID(), siteId, url: `${url}about`, title: 'About' });
    await db.insert(siteSchedules).values({ siteId, frequency: 'daily', nextRunAt: new Date() });
    await db.insert(discoveryJobs).values({ id: discoveryId, accountId: id, url, type: 'full', maxUrls: 10 });
    await db.insert(discoveredUrls).values({ id: randomUUID(), discoveryId, url: `${url}about`, source: 'sitemap', position: 0 });
    await db.insert(subscriptions).values({
      id: randomUUID(),
      accountId: id,
      providerSubscriptionId: `sub_${randomUUID()}`,
      planId: 'starter',
      status: 'active',
      billingCycle: 'monthly',
    });
    await db.insert(checkoutSessions).values({ id: `cs_${randomUUID()}`, accountId: id, mode: 'payment', packageId: 'credits_100' });
    const keyed = await service().request('POST', '/api/v1/discovery', { token: apiKey, body: { url }, headers: { 'idempotency-key': 'seed' } });
    assert.equal(keyed.status, 201);
    await db.transaction((tx) => spendCredits(tx, { accountId: id, amount: 1, description: 'Generation', siteId }));
    // Directly: registering through the API would resolve the receiver's host name.
    const endpointId = randomUUID();
    await db.insert(webhookEndpoints).values({ id: endpointId, accountId: id, url: 'https://hooks.example.com/', events: ['generation.completed'], sealedSecret: 'sealed' });
    await db.insert(webhookDeliveries).values({ id: `msg_${randomUUID()}`, endpointId, event: 'generation.completed', payload: {} });
    return { id, apiKey, siteIds: [siteId], discoveryIds: [discoveryId], endpointIds: [endpointId] };
  }

  /** How many rows of each table of the schema belong to the account. */
  async function rowsOwnedBy(owner: Owner): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of allTables) {
      const name = getTableName(table);
      if (UNOWNED_TABLES.has(name)) continue;
      const columns = getTableColumns(table) as Record<string, any>;
      const owned = ownedThroughParent[name]?.(owner) ?? (columns.accountId ? eq(columns.accountId, owner.id) : undefined);
      assert.ok(owned, `table ${name} is new: say in this test how its rows belong to an account (or that they do not)`);
      const [{ n }] = await service().db.select({ n: count() }).from(table).where(owned);
      counts[name] = n;
    }
    return counts;
  }

  test('removes every row the account owns, table by table, and leaves other accounts alone', async () => {
    const leaving = await accountWithEverything();
    const staying = await accountWithEverything();
    const before = await rowsOwnedBy(leaving);
    const stayingBefore = await rowsOwnedBy(staying);
    for (const [table, n] of Object.entries(before)) assert.ok(n > 0, `the test seeds ${table}`);
    assert.deepEqual(before.credit_transactions, 2);

    const res = await deleteAccount(leaving.apiKey);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['message', 'success']);
    assert.equal(res.body.success, true);
    assert.equal(typeof res.body.message, 'string');

    const after = await rowsOwnedBy(leaving);
    assert.deepEqual(after, Object.fromEntries(Object.keys(before).map((table) => [table, 0])));
    assert.deepEqual(await rowsOwnedBy(staying), stayingBefore);
    const stillThere = await service().request('GET', '/api/v1/credits/balance/api', { token: staying.apiKey });
    assert.equal(stillThere.status, 200);
    assert.equal(stillThere.body.balance, 19);
  });

  test('answers 401 "API key context not found" to an access token or no credentials, and deletes nothing', async () => {
    const { id, apiKey } = await service().createAccount();
    const { accessToken } = await service().login(apiKey);
    for (const token of [accessToken, undefined]) {
      const res = await deleteAccount(token);
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { message: 'API key context not found' });
    }
    const unknownKey = await deleteAccount('llmstxt_0000000000000000000000000000000000000000000');
    assert.equal(unknownKey.status, 401);
    assert.deepEqual(unknownKey.body, { message: 'Unauthorized' });
    assert.equal((await service().db.select().from(accounts).where(eq(accounts.id, id))).length, 1);
  });

  test("refuses the deleted account's API keys, access token and refresh token afterwards", async () => {
    const { apiKey } = await service().createAccount();
    const other = await service().request('POST', '/api/v1/api-keys', { token: apiKey, body: { name: 'other' } });
    const { accessToken, refreshToken } = await service().login(apiKey);
    assert.equal((await deleteAccount(apiKey)).status, 200);

    for (const key of [apiKey, other.body.key]) {
      const res = await service().request('GET', '/api/v1/credits/balance/api', { token: key });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { message: 'Unauthorized' });
    }
    const byToken = await service().request('GET', '/api/v1/credits/balance', { token: accessToken });
    assert.equal(byToken.status, 401, 'a still-unexpired access token acts for no one');
    assert.deepEqual(byToken.body, { message: 'Unauthorized' });
    const profile = await service().request('PUT', '/api/v1/accounts/profile', { token: accessToken, body: { firstName: 'Ghost' } });
    assert.equal(profile.status, 401);
    const renewed = await service().request('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
    assert.equal(renewed.status, 401);
    assert.deepEqual(renewed.body, { message: 'Invalid or expired refresh token' });
    const again = await deleteAccount(apiKey);
    assert.equal(again.status, 401);
  });

  test('frees the e-mail address for a new sign-up', async () => {
    const { apiKey, email } = await service().createAccount();
    assert.equal((await deleteAccount(apiKey)).status, 200);
    const res = await service().request('POST', '/api/v1/accounts', { body: { email, firstName: 'Again' } });
    assert.equal(res.status, 201);
    assert.equal(res.body.account.email, email);
  });
});
