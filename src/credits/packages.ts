/** The credit packages on sale (DESIGN.md): `id` or `packageId` may be sent to checkout. */
export interface CreditPackage {
  id: string;
  packageId: string;
  name: string;
  credits: number;
  priceCents: number;
}

export const CREDIT_PACKAGES: readonly CreditPackage[] = [
  { id: 'credits_100', packageId: 'small', name: 'Small: 100 credits', credits: 100, priceCents: 500 },
  { id: 'credits_500', packageId: 'medium', name: 'Medium: 500 credits', credits: 500, priceCents: 2000 },
  { id: 'credits_2000', packageId: 'large', name: 'Large: 2,000 credits', credits: 2000, priceCents: 6000 },
];

export function findCreditPackage(idOrPackageId: string): CreditPackage | undefined {
  return CREDIT_PACKAGES.find((p) => p.id === idOrPackageId || p.packageId === idOrPackageId);
}
