import { Type } from 'typebox';
import type { AppDeps } from '../app.ts';
import { callerOf } from '../http/authenticate.ts';
import { IsoDate, Nullable, OneOf } from '../http/schemas.ts';
import { registerTwins } from '../http/twins.ts';
import type { App } from '../http/types.ts';
import { creditHistory, creditSummary, TRANSACTION_TYPES, type HistoryQuery } from './ledger.ts';
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

export async function creditRoutes(app: App, { database }: AppDeps) {
  const { db } = database;

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

  registerTwins(app, '/credits/balance', {
    method: 'GET',
    schema: { tags: ['Credits'], summary: 'Credit balance and recent transactions', response: { 200: BalanceView } },
    handler: async (request) => creditSummary(db, callerOf(request).accountId),
  });

  registerTwins(app, '/credits/history', {
    method: 'GET',
    schema: { tags: ['Credits'], summary: 'Credit transaction history', querystring: HistoryQuerySchema, response: { 200: HistoryView } },
    handler: async (request) => creditHistory(db, callerOf(request).accountId, request.query as HistoryQuery),
  });
}
