import { Type } from 'typebox';
import { pagesPerCredit } from '../generation/pricing.ts';
import type { RoutePlugin } from '../http/types.ts';
import { PLANS } from './plans.ts';

/** What a credit buys: the pages of a generation it pays for, per method (the start's own price rule). */
const creditValue = { simple: pagesPerCredit('simple'), enhanced: pagesPerCredit('enhanced') };

export const planRoutes: RoutePlugin = async (app) => {
  app.get(
    '/plans',
    {
      schema: {
        tags: ['Subscriptions'],
        summary: 'Subscription plans (priceCents is monthly; yearlyPriceCents buys 12 months of credits), and what a credit buys',
        response: {
          200: Type.Object({
            plans: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                monthlyCredits: Type.Integer(),
                priceCents: Type.Integer(),
                yearlyPriceCents: Type.Integer(),
              }),
            ),
            pagesPerCredit: Type.Object(
              { simple: Type.Number(), enhanced: Type.Number() },
              { description: 'the pages of a generation one credit pays for, per method (enhanced with an AI provider configured; without one it runs, and is charged, as simple)' },
            ),
          }),
        },
      },
    },
    async () => ({ plans: [...PLANS], pagesPerCredit: creditValue }),
  );
};
