import { Type } from 'typebox';
import type { RoutePlugin } from '../http/types.ts';
import { PLANS } from './plans.ts';

export const planRoutes: RoutePlugin = async (app) => {
  app.get(
    '/plans',
    {
      schema: {
        tags: ['Subscriptions'],
        summary: 'Subscription plans (priceCents is monthly; yearlyPriceCents buys 12 months of credits)',
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
          }),
        },
      },
    },
    async () => ({ plans: [...PLANS] }),
  );
};
