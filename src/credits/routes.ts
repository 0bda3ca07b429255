import { Type } from 'typebox';
import type { Database } from '../db/database.ts';
import { callerOf } from '../http/authenticate.ts';
import { cachedAnswer } from '../http/cached-answer.ts';
import { sessionAndKeyRoutes } from '../http/schemas.ts';
import { IsoDate, Nullable, OneOf } from '../shapes.ts';
import type { RoutePlugin } from '../http/types.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { creditHistory, creditSummary, TRANSACTION_TYPES, type CreditSummary } from './ledger.ts';
import { CREDIT_PACKAGES } from './packages.ts';

const TransactionView = Type.Object({
  id: Type.String(),
  type: Type.String(),
  amount: Type.Integer(),
  description: Type.String(),
  createdAt: IsoDate,
});

const BalanceView = Type.Object({
  balance: Type.Integer(),
  totalPurchased: Type.Integer(),
  totalUsed: Type.Integer(),
  recentTransactions: Type.Array(TransactionView),
});

const HistoryQuerySchema = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    offset: Type.Integer({ minimum: 0, default: 0 }),
    type: Type.Optional(OneOf(TRANSACTION_TYPES)),
  },
  { additionalProperties: false },
);

const HistoryView = Type.Object({
  transactions: Type.Array(Type.Intersect([TransactionView, Type.Object({ siteId: Nullable(Type.String()) })])),
  total: Type.Integer(),
  hasMore: Type.Boolean(),
});

export const creditRoutes: RoutePlugin<{ db: Database; balanceReads: ReadCache<CreditSummary> }> = async (app, { db, balanceReads }) => {
  const sendBalance = cachedAnswer<CreditSummary>();
  app.get(
    '/credits/packages',
    {
      schema: {
        tags: ['Credits'],
        summary: 'The credit packages on sale',
        response: {
          200: Type.Object({
            packages: Type.Array(
              Type.Object({ id: Type.String(), name: Type.String(), credits: Type.Integer(), priceCents: Type.Integer(), packageId: Type.String() }),
            ),
          }),
        },
      },
    },
    async () => ({ packages: [...CREDIT_PACKAGES] }),
  );

  for (const { url, auth, summary } of sessionAndKeyRoutes('/credits/balance', '/credits/balance/api', 'Credit balance and recent transactions')) {
    app.get(url, { config: { auth }, schema: { tags: ['Credits'], summary, response: { 200: BalanceView } } }, async (request, reply) => {
      const { accountId } = callerOf(request);
      const summary = (await balanceReads.read(accountId, () => creditSummary(db, accountId)))!;
      return sendBalance(summary, reply);
    });
  }

  for (const { url, auth, summary } of sessionAndKeyRoutes('/credits/history', '/credits/history/api', 'Credit transaction history')) {
    app.get(
      url,
      { config: { auth }, schema: { tags: ['Credits'], summary, querystring: HistoryQuerySchema, response: { 200: HistoryView } } },
      async (request) => creditHistory(db, callerOf(request).accountId, request.query),
    );
  }
};
