/** Subscription plans (DESIGN.md). A yearly subscription is granted 12 × monthlyCredits per paid invoice. */
export const PLAN_IDS = ['starter', 'professional', 'business', 'agency'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type BillingCycle = 'monthly' | 'yearly';

export interface Plan {
  id: PlanId;
  name: string;
  monthlyCredits: number;
  /** monthly price */
  priceCents: number;
  yearlyPriceCents: number;
}

export const PLANS: readonly Plan[] = [
  { id: 'starter', name: 'Starter', monthlyCredits: 500, priceCents: 900, yearlyPriceCents: 9000 },
  { id: 'professional', name: 'Professional', monthlyCredits: 2000, priceCents: 2900, yearlyPriceCents: 29000 },
  { id: 'business', name: 'Business', monthlyCredits: 6000, priceCents: 7900, yearlyPriceCents: 79000 },
  { id: 'agency', name: 'Agency', monthlyCredits: 20000, priceCents: 19900, yearlyPriceCents: 199000 },
];

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

export function priceFor(plan: Plan, cycle: BillingCycle): number {
  return cycle === 'yearly' ? plan.yearlyPriceCents : plan.priceCents;
}

export function creditsPerInvoice(plan: Plan, cycle: BillingCycle): number {
  return cycle === 'yearly' ? plan.monthlyCredits * 12 : plan.monthlyCredits;
}

/** How a plan shows on an invoice line and in the billing portal: "Starter plan (monthly): 1,000 credits". */
export function planName(planId: string, cycle: BillingCycle): string {
  const plan = findPlan(planId);
  return plan ? `${plan.name} plan (${cycle}): ${creditsPerInvoice(plan, cycle).toLocaleString('en-US')} credits` : planId;
}
