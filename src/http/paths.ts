/**
 * The paths that more than one module needs: where the API is mounted, and the routes whose
 * URLs other code hands out (a job links to its site's file; the payment provider is told where
 * its webhooks go). Every other path is written once, in its route definition.
 */
export const API_PREFIX = '/api/v1';

/** The hosted llms.txt of a site (served by sites/routes.ts); `?full=true` for llms-full.txt. */
export const FILE_ROUTE = '/file/:siteId';

/** A page's hosted markdown (sites/routes.ts; its paths: sites/markdown-paths.ts). */
export const HOSTED_PAGE_ROUTE = '/file/:siteId/pages/*';

/** Where Stripe (and the local provider's emulator) deliver their signed events. */
export const STRIPE_WEBHOOK_ROUTE = '/webhooks/stripe';

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

export function fileUrls(publicUrl: string, siteId: string): { fileUrl: string; fullTextUrl: string } {
  const fileUrl = publicUrl + API_PREFIX + FILE_ROUTE.replace(':siteId', encodeURIComponent(siteId));
  return { fileUrl, fullTextUrl: `${fileUrl}?full=true` };
}
