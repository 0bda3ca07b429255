import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { and, count, eq } from '../db/orm.ts';
import { creditTransactions, sites } from '../db/schema.ts';
import { describeOnEachDatabase } from '../testing/service.ts';
import { addCredits, spendCredits } from './ledger.ts';

describeOnEachDatabase('Credits', (service) => {
  const get = (path: string, token?: string) => service().request('GET', path, { token });
  const grant = (accountId: string, type: 'purchase' | 'refund', amount: number, description = `${type} of ${amount}`) =>
    service().db.transaction((tx) => addCredits(tx, type, { accountId, amount, description }));
  const spend = (accountId: string, amount: number, siteId: string | null = null) =>
    service().db.transaction((tx) => spendCredits(tx, { accountId, amount, description: `usage of ${amount}`, siteId }));

  describe('GET /credits/packages', () => {
    test('lists the three packages on sale, without credentials', async () => {
      const res = await get('/api/v1/credits/packages');
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), ['packages']);
      for (const p of res.body.packages) {
        assert.deepEqual(Object.keys(p).sort(), ['credits', 'id', 'name', 'packageId', 'priceCents']);
        assert.ok(typeof p.name === 'string' && p.name.length > 0);
      }
      assert.deepEqual(
        res.body.packages.map(({ id, packageId, credits, priceCents }: any) => ({ id, packageId, credits, priceCents })),
        [
          { id: 'credits_100', packageId: 'small', credits: 100, priceCents: 500 },
          { id: 'credits_500', packageId: 'medium', credits: 500, priceCents: 2000 },
          { id: 'credits_2000', packageId: 'large', credits: 2000, priceCents: 6000 },
        ],
      );
    });

    test('does not judge credentials it does not need: a bad token still gets the list', async () => {
      const res = await get('/api/v1/credits/packages', 'garbage');
      assert.equal(res.status, 200);
      assert.equal(res.body.packages.length, 3);
    });
  });

  describe('GET /plans', () => {
    test('lists the four subscription plans with monthly credits and monthly and yearly prices', async () => {
      const res = await get('/api/v1/plans');
      assert.equal(res.status, 200);
      for (const p of res.body.plans) {
        assert.deepEqual(Object.keys(p).sort(), ['id', 'monthlyCredits', 'name', 'priceCents', 'yearlyPriceCents']);
        assert.ok(typeof p.name === 'string' && p.name.length > 0);
      }
      assert.deepEqual(
        res.body.plans.map(({ id, monthlyCredits, priceCents, yearlyPriceCents }: any) => ({ id, monthlyCredits, priceCents, yearlyPriceCents })),
        [
          { id: 'starter', monthlyCredits: 500, priceCents: 900, yearlyPriceCents: 9000 },
          { id: 'professional', monthlyCredits: 2000, priceCents: 2900, yearlyPriceCents: 29000 },
          { id: 'business', monthlyCredits: 6000, priceCents: 7900, yearlyPriceCents: 79000 },
          { id: 'agency', monthlyCredits: 20000, priceCents: 19900, yearlyPriceCents: 199000 },
        ],
      );
      assert.deepEqual(res.body.pagesPerCredit, { simple: 10, enhanced: 5 }, 'what a credit buys: a credit per 10 pages, twice that enhanced');
    });
  });

  describe('GET /credits/balance', () => {
    test('answers the balance summary to an access token on /credits/balance and to an API key on /credits/balance/api', async () => {
      const { apiKey } = await service().createAccount();
      const { accessToken } = await service().login(apiKey);
      const byToken = await get('/api/v1/credits/balance', accessToken);
      const byKey = await get('/api/v1/credits/balance/api', apiKey);
      assert.equal(byToken.status, 200);
      assert.equal(byKey.status, 200);
      assert.deepEqual(byToken.body, byKey.body);
      assert.deepEqual(Object.keys(byKey.body).sort(), ['balance', 'recentTransactions', 'totalPurchased', 'totalUsed']);
      assert.equal(byKey.body.balance, 20);
      assert.equal(byKey.body.totalPurchased, 20);
      assert.equal(byKey.body.totalUsed, 0);
      assert.equal(byKey.body.recentTransactions.length, 1);
      const [welcome] = byKey.body.recentTransactions;
      assert.deepEqual(Object.keys(welcome).sort(), ['amount', 'createdAt', 'description', 'id', 'type'], 'no siteId in the summary');
      assert.deepEqual({ type: welcome.type, amount: welcome.amount, description: welcome.description }, {
        type: 'purchase',
        amount: 20,
        description: 'Welcome credits',
      });
    });

    test('counts spending net of refunds: balance, totalPurchased and totalUsed follow the ledger', async () => {
      const { id, apiKey } = await service().createAccount();
      await spend(id, 7);
      await grant(id, 'refund', 3);
      await grant(id, 'purchase', 100);
      const res = await get('/api/v1/credits/balance/api', apiKey);
      assert.equal(res.body.balance, 20 - 7 + 3 + 100);
      assert.equal(res.body.totalPurchased, 120);
      assert.equal(res.body.totalUsed, 4);
      assert.deepEqual(res.body.recentTransactions.map((t: any) => [t.type, t.amount]), [
        ['purchase', 100],
        ['refund', 3],
        ['usage', -7],
        ['purchase', 20],
      ]);
    });

    test('a polled balance is answered the same until the ledger moves, then the new balance at once', async () => {
      const { id, apiKey } = await service().createAccount();
      const first = await get('/api/v1/credits/balance/api', apiKey);
      const again = await get('/api/v1/credits/balance/api', apiKey);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.match(again.body.recentTransactions[0].createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/);
      await spend(id, 5);
      const after = await get('/api/v1/credits/balance/api', apiKey);
      assert.equal(after.body.balance, first.body.balance - 5);
      assert.deepEqual(after.body.recentTransactions[0].amount, -5);
    });

    test('shows the newest entries of the history as recent transactions', async () => {
      const { id, apiKey } = await service().createAccount();
      for (let i = 0; i < 15; i++) await grant(id, 'purchase', i + 1);
      const balance = await get('/api/v1/credits/balance/api', apiKey);
      const history = await get('/api/v1/credits/history/api?limit=100', apiKey);
      const recent = balance.body.recentTransactions;
      assert.ok(recent.length > 0 && recent.length < history.body.total, `a bounded list: ${recent.length} of ${history.body.total}`);
      assert.deepEqual(recent, history.body.transactions.slice(0, recent.length).map(({ siteId: _, ...t }: any) => t));
    });
  });

  describe('which caller may use which twin', () => {
    for (const path of ['/api/v1/credits/balance', '/api/v1/credits/history']) {
      test(`${path} takes only an access token and ${path}/api only an API key; anything else is 401 Unauthorized`, async () => {
        const { apiKey } = await service().createAccount();
        const { accessToken, refreshToken } = await service().login(apiKey);
        const refused: Array<[string, string | undefined]> = [
          [`${path}/api`, accessToken],
          [path, apiKey],
          [path, undefined],
          [`${path}/api`, undefined],
          [path, refreshToken],
          [`${path}/api`, 'llmstxt_unknown'],
          [path, accessToken.slice(0, -2) + 'xx'],
        ];
        for (const [url, token] of refused) {
          const res = await get(url, token);
          assert.equal(res.status, 401, `${url} with ${token?.slice(0, 12)}`);
          assert.deepEqual(res.body, { message: 'Unauthorized' });
        }
        assert.equal((await get(path, accessToken)).status, 200);
        assert.equal((await get(`${path}/api`, apiKey)).status, 200);
      });
    }
  });

  describe('GET /credits/history', () => {
    // The welcome grant, then 15 purchases, 20 usages and 10 refunds: 46 rows.
    const expected = { purchase: 16, usage: 20, refund: 10 };
    const TOTAL = 46;
    let owner: { id: string; apiKey: string };
    let accessToken: string;
    let neighbour: { id: string; apiKey: string };
    const history = (query = '', token = owner.apiKey) => get(`/api/v1/credits/history/api${query}`, token);

    before(async () => {
      owner = await service().createAccount();
      neighbour = await service().createAccount();
      ({ accessToken } = await service().login(owner.apiKey));
      for (let i = 0; i < 15; i++) await grant(owner.id, 'purchase', 10 + i);
      for (let i = 0; i < 20; i++) await spend(owner.id, 1 + (i % 3));
      for (let i = 0; i < 10; i++) await grant(owner.id, 'refund', 1);
      await spend(neighbour.id, 5);
      await grant(neighbour.id, 'refund', 2);
    });

    test('answers 20 entries by default, newest first, with the total and hasMore', async () => {
      const res = await history();
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body).sort(), ['hasMore', 'total', 'transactions']);
      assert.equal(res.body.transactions.length, 20);
      assert.equal(res.body.total, TOTAL);
      assert.equal(res.body.hasMore, true);
      for (const t of res.body.transactions) {
        assert.deepEqual(Object.keys(t).sort(), ['amount', 'createdAt', 'description', 'id', 'siteId', 'type']);
      }
      const times = res.body.transactions.map((t: any) => Date.parse(t.createdAt));
      assert.deepEqual(times, [...times].sort((a, b) => b - a));
      const [{ total }] = await service().db.select({ total: count() }).from(creditTransactions).where(eq(creditTransactions.accountId, owner.id));
      assert.equal(total, TOTAL);
    });

    test('walks the whole history with limit and offset, each entry exactly once', async () => {
      const all = await history('?limit=100');
      assert.equal(all.body.transactions.length, TOTAL);
      assert.equal(all.body.hasMore, false);
      const walked: string[] = [];
      for (let offset = 0; ; offset += 7) {
        const page = await history(`?limit=7&offset=${offset}`);
        assert.equal(page.status, 200);
        assert.equal(page.body.total, TOTAL);
        walked.push(...page.body.transactions.map((t: any) => t.id));
        assert.equal(page.body.hasMore, offset + 7 < TOTAL, `hasMore at offset ${offset}`);
        if (!page.body.hasMore) break;
      }
      assert.deepEqual(walked, all.body.transactions.map((t: any) => t.id));

      const beyond = await history('?offset=1000');
      assert.deepEqual(beyond.body, { transactions: [], total: TOTAL, hasMore: false });
    });

    test('filters by type, counting only that type', async () => {
      for (const [type, n] of Object.entries(expected)) {
        const page = await history(`?type=${type}&limit=5`);
        assert.equal(page.status, 200);
        assert.equal(page.body.total, n, type);
        assert.equal(page.body.hasMore, n > 5);
        assert.ok(page.body.transactions.every((t: any) => t.type === type));
        const all = await history(`?type=${type}&limit=100`);
        assert.equal(all.body.transactions.length, n);
        for (const t of all.body.transactions) assert.ok(type === 'usage' ? t.amount < 0 : t.amount > 0, `${type} ${t.amount}`);
      }
    });

    test('accepts limits from 1 to 100 and refuses 0 and 101 with 400', async () => {
      assert.equal((await history('?limit=1')).body.transactions.length, 1);
      assert.equal((await history('?limit=100')).status, 200);
      for (const [query, message] of [
        ['?limit=101', 'Validation error: limit must be <= 100'],
        ['?limit=0', 'Validation error: limit must be >= 1'],
      ]) {
        const res = await history(query);
        assert.equal(res.status, 400, query);
        assert.deepEqual(res.body, { message }, query);
      }
    });

    test('answers 400 "Validation error: …" for query parameters of the wrong type, and for unknown ones', async () => {
      const cases: Array<[string, string | RegExp]> = [
        ['?limit=abc', 'Validation error: limit must be integer'],
        ['?limit=2.5', 'Validation error: limit must be integer'],
        ['?limit=', /^Validation error: limit /],
        ['?offset=-1', 'Validation error: offset must be >= 0'],
        ['?offset=first', 'Validation error: offset must be integer'],
        ['?offset=Infinity', /^Validation error: offset must be /],
        ['?offset=1e309', /^Validation error: offset must be /],
        ['?offset=NaN', /^Validation error: offset must be /],
        ['?offset=100000000000000000000', 'Validation error: offset must be between -9007199254740991 and 9007199254740991'],
        ['?type=gift', /^Validation error: type /],
        ['?type=USAGE', /^Validation error: type /],
        ['?limit=5&limit=6', /^Validation error: limit /],
        ['?page=2', 'Validation error: unknown property page in querystring'],
      ];
      for (const [query, message] of cases) {
        for (const res of [await history(query), await get(`/api/v1/credits/history${query}`, accessToken)]) {
          assert.equal(res.status, 400, query);
          assert.deepEqual(Object.keys(res.body), ['message']);
          if (typeof message === 'string') assert.equal(res.body.message, message, query);
          else assert.match(res.body.message, message, query);
        }
      }
    });

    test('answers the same history to the access-token twin and the API-key twin', async () => {
      const byKey = await history('?limit=30&offset=3&type=usage');
      const byToken = await get('/api/v1/credits/history?limit=30&offset=3&type=usage', accessToken);
      assert.equal(byToken.status, 200);
      assert.deepEqual(byToken.body, byKey.body);
    });

    test("never shows another account's transactions", async () => {
      const mine = (await history('?limit=100')).body.transactions.map((t: any) => t.id);
      const theirs = await history('?limit=100', neighbour.apiKey);
      assert.equal(theirs.body.total, 3);
      assert.deepEqual(theirs.body.transactions.map((t: any) => t.type).sort(), ['purchase', 'refund', 'usage']);
      assert.ok(theirs.body.transactions.every((t: any) => !mine.includes(t.id)));
      const rows = await service().db
        .select({ id: creditTransactions.id })
        .from(creditTransactions)
        .where(and(eq(creditTransactions.accountId, neighbour.id)));
      assert.deepEqual(theirs.body.transactions.map((t: any) => t.id).sort(), rows.map((r) => r.id).sort());
    });

    test('links usage entries to their site', async () => {
      const { id, apiKey } = await service().createAccount();
      const siteId = randomUUID();
      await service().db.insert(sites).values({ id: siteId, accountId: id, url: 'https://example.com/' });
      await spend(id, 2, siteId);
      const res = await history('?type=usage', apiKey);
      assert.equal(res.body.transactions.length, 1);
      assert.equal(res.body.transactions[0].siteId, siteId);
      assert.equal(res.body.transactions[0].amount, -2);
      const welcome = await history('?type=purchase', apiKey);
      assert.equal(welcome.body.transactions[0].siteId, null);
    });
  });
});
