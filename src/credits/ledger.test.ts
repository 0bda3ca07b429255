import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq, sql } from '../db/orm.ts';
import { accounts, creditTransactions } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { describeOnEachDatabase } from '../testing/service.ts';
import { addCredits, creditSummary, spendCredits } from './ledger.ts';

class ForcedRollback extends Error {}

describeOnEachDatabase('Credit ledger', (service) => {
  const db = () => service().db;
  const debit = (accountId: string, amount = 1) =>
    db().transaction((tx) => spendCredits(tx, { accountId, amount, description: 'test debit' }));
  const grant = (accountId: string, amount: number, reference?: string) =>
    db().transaction((tx) => addCredits(tx, 'purchase', { accountId, amount, description: 'test grant', reference }));

  async function ledgerOf(accountId: string) {
    const [{ balance }] = await db().select({ balance: accounts.creditBalance }).from(accounts).where(eq(accounts.id, accountId));
    const rows = await db().select().from(creditTransactions).where(eq(creditTransactions.accountId, accountId));
    const [{ sum }] = await db()
      .select({ sum: sql<string>`coalesce(sum(${creditTransactions.amount}), 0)` })
      .from(creditTransactions)
      .where(eq(creditTransactions.accountId, accountId));
    return { balance, rows, sum: Number(sum) };
  }

  test('lets exactly 20 of 50 simultaneous 1-credit debits through on a balance of 20, and refuses the rest with 402', async () => {
    const { id } = await service().createAccount();
    assert.equal((await ledgerOf(id)).balance, 20);

    const results = await Promise.allSettled(Array.from({ length: 50 }, () => debit(id)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.equal(results.length - refused.length, 20);
    assert.equal(refused.length, 30);
    for (const { reason } of refused) {
      assert.ok(reason instanceof ApiError, String(reason));
      assert.equal(reason.statusCode, 402);
      assert.equal(reason.message, 'Insufficient credits. Required: 1, Available: 0. Please purchase more credits to continue.');
    }

    const { balance, rows, sum } = await ledgerOf(id);
    assert.equal(balance, 0);
    assert.equal(sum, balance);
    assert.equal(rows.filter((r) => r.type === 'usage').length, 20);
  });

  test('names the balance left when a debit is larger than it', async () => {
    const { id } = await service().createAccount();
    await assert.rejects(debit(id, 21), {
      statusCode: 402,
      message: 'Insufficient credits. Required: 21, Available: 20. Please purchase more credits to continue.',
    });
    assert.deepEqual((await ledgerOf(id)).rows.map((r) => r.type), ['purchase']);
  });

  test('keeps the balance equal to the sum of its rows under simultaneous grants, debits and rolled-back debits', async () => {
    const { id } = await service().createAccount();
    const work: Array<() => Promise<'granted' | 'debited' | 'rolled back'>> = [];
    for (let i = 0; i < 30; i++) work.push(async () => (await grant(id, 2), 'granted'));
    for (let i = 0; i < 70; i++) work.push(async () => (await debit(id), 'debited'));
    for (let i = 0; i < 15; i++) {
      work.push(async () => {
        await db()
          .transaction(async (tx) => {
            await spendCredits(tx, { accountId: id, amount: 1, description: 'rolled back' });
            throw new ForcedRollback();
          })
          .catch((error) => {
            if (!(error instanceof ForcedRollback) && !(error instanceof ApiError && error.statusCode === 402)) throw error;
          });
        return 'rolled back';
      });
    }
    // A fixed interleaving, so every run mixes the three kinds the same way.
    const order = work.map((_, i) => (i * 37) % work.length);
    const results = await Promise.allSettled(order.map((i) => work[i]()));

    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    for (const { reason } of failures) {
      assert.ok(reason instanceof ApiError && reason.statusCode === 402, `only debits may fail, with 402: ${reason}`);
    }
    const debited = results.filter((r) => r.status === 'fulfilled' && r.value === 'debited').length;
    const granted = results.filter((r) => r.status === 'fulfilled' && r.value === 'granted').length;
    assert.equal(granted, 30);
    assert.ok(debited >= 20 && debited <= 70, `${debited} debits went through`);

    const { balance, rows, sum } = await ledgerOf(id);
    assert.equal(balance, 20 + 60 - debited);
    assert.ok(balance >= 0);
    assert.equal(sum, balance);
    assert.equal(rows.filter((r) => r.type === 'usage').length, debited);
    assert.equal(rows.filter((r) => r.description === 'rolled back').length, 0, 'a rolled-back debit leaves no row');
  });

  test('records an entry with a reference once, however often it is repeated', async () => {
    const { id } = await service().createAccount();
    assert.equal(await grant(id, 100, `checkout:${id}`), true);
    assert.equal(await grant(id, 100, `checkout:${id}`), false);
    const { balance, rows, sum } = await ledgerOf(id);
    assert.equal(rows.filter((r) => r.reference === `checkout:${id}`).length, 1);
    assert.equal(balance, 120);
    assert.equal(sum, balance);
  });

  test('records an entry with a reference once when it arrives many times at once', async () => {
    const { id } = await service().createAccount();
    const reference = `invoice:${id}`;
    const results = await Promise.all(Array.from({ length: 10 }, () => grant(id, 50, reference)));
    assert.equal(results.filter(Boolean).length, 1);
    const { balance, rows, sum } = await ledgerOf(id);
    assert.equal(rows.filter((r) => r.reference === reference).length, 1);
    assert.equal(balance, 70);
    assert.equal(sum, balance);
  });

  test('reports totalPurchased and totalUsed (net of refunds) as the rows say', async () => {
    const { id, apiKey } = await service().createAccount();
    await grant(id, 500);
    for (const amount of [10, 4, 7]) await debit(id, amount);
    await db().transaction((tx) => addCredits(tx, 'refund', { accountId: id, amount: 6, description: 'refund', reference: `refund:${id}` }));

    const { balance, rows } = await ledgerOf(id);
    const purchased = rows.filter((r) => r.type === 'purchase').reduce((s, r) => s + r.amount, 0);
    const used = -rows.filter((r) => r.type !== 'purchase').reduce((s, r) => s + r.amount, 0);
    assert.deepEqual([purchased, used], [520, 15]);

    const summary = await creditSummary(db(), id);
    assert.deepEqual([summary.balance, summary.totalPurchased, summary.totalUsed], [balance, purchased, used]);
    const http = await service().request('GET', '/api/v1/credits/balance/api', { token: apiKey });
    assert.deepEqual([http.body.balance, http.body.totalPurchased, http.body.totalUsed], [505, 520, 15]);
  });

  test('refuses amounts that are not positive whole numbers, writing nothing', async () => {
    const { id } = await service().createAccount();
    for (const amount of [0, -5, 1.5, Number.NaN]) {
      await assert.rejects(debit(id, amount), /positive integer/);
      await assert.rejects(grant(id, amount), /positive integer/);
    }
    const { balance, rows } = await ledgerOf(id);
    assert.equal(balance, 20);
    assert.equal(rows.length, 1);
  });
});
