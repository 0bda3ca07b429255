/**
 * The message catalogue: every message the API answers with lives here, once: errors, success
 * messages and what a job says about itself.
 * Handlers and logic throw `errors.xxx()`; the HTTP error handler turns an ApiError into
 * `{message, ...extra}` with its status.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.extra = extra;
    this.headers = headers;
  }
}

export const errors = {
  validation: (reason: string) => new ApiError(400, `Validation error: ${reason}`),
  routeNotFound: (method: string, url: string) => new ApiError(404, `Route ${method} ${url} not found`),
  payloadTooLarge: () => new ApiError(413, 'Request body is too large'),
  unsupportedMediaType: () => new ApiError(415, 'Unsupported Content-Type'),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, `Too many requests. Retry in ${retryAfterSeconds} seconds.`, {}, {
      'retry-after': String(retryAfterSeconds),
    }),
  internal: () => new ApiError(500, 'Internal server error'),
  databaseUnreachable: () => new ApiError(503, 'Database unreachable'),

  // authentication
  unauthorized: () => new ApiError(401, 'Unauthorized'),
  authorizationHeaderRequired: () => new ApiError(401, 'Authorization header required'),
  apiKeyContextNotFound: () => new ApiError(401, 'API key context not found'),
  invalidRefreshToken: () => new ApiError(401, 'Invalid or expired refresh token'),
  revokedRefreshToken: () => new ApiError(401, 'Refresh token has been revoked'),
  invalidLoginCode: () => new ApiError(401, 'Invalid or expired login code'),

  // accounts and keys
  emailTaken: () => new ApiError(409, 'An account with this email already exists'),
  apiKeyNotFound: () => new ApiError(404, 'API key not found'),
  lastApiKey: () => new ApiError(409, 'Cannot revoke the last active API key of an account'),
  tooManyApiKeys: (max: number) => new ApiError(409, `An account can have at most ${max} API keys`),

  // credits and billing
  insufficientCredits: (required: number, available: number) =>
    new ApiError(
      402,
      `Insufficient credits. Required: ${required}, Available: ${available}. Please purchase more credits to continue.`,
    ),
  creditPackageNotFound: () => new ApiError(404, 'Credit package not found'),
  paymentNotCompleted: () => new ApiError(400, 'Payment not completed', { success: false }),
  invalidSessionMetadata: () => new ApiError(400, 'Invalid session metadata', { success: false }),
  checkoutSessionNotFound: () => new ApiError(404, 'Checkout session not found', { success: false }),
  sessionBelongsToAnotherUser: () =>
    new ApiError(403, 'This checkout session belongs to another user', { success: false }),
  invalidPlan: () => new ApiError(400, 'Invalid plan id. Choose one of starter, professional, business, agency'),
  subscriptionAlreadyActive: () =>
    new ApiError(400, 'You already have an active subscription. Use the billing portal to change plans'),
  noBillingAccount: () => new ApiError(400, 'No billing account found. Make a purchase first'),
  paymentProviderUnavailable: () =>
    new ApiError(502, 'The payment provider is unavailable. Nothing was charged; please try again'),
  invalidWebhookSignature: () => new ApiError(400, 'Invalid webhook signature'),

  // sites, jobs, files
  siteNotFound: () => new ApiError(404, 'Site not found'),
  siteAccessDenied: () => new ApiError(403, 'Access denied to this site'),
  jobNotFound: () => new ApiError(404, 'Generation job not found'),
  jobAccessDenied: () => new ApiError(403, 'Access denied to this job'),
  jobAlreadyFinished: () => new ApiError(409, 'This generation job has already finished'),
  discoveryNotFound: () => new ApiError(404, 'Discovery job not found'),
  privateTarget: () =>
    new ApiError(400, 'Validation error: url points to a private or reserved address. A self-hosted service can allow these with CRAWL_ALLOW_PRIVATE=true'),
  tooManyJobs: (max: number) => new ApiError(429, `Too many jobs in progress: at most ${max} at once`),
  fileNotFound: () => new ApiError(404, 'File not found'),
  markdownExportRequiresPaidPlan: () => new ApiError(403, 'Markdown export requires a paid plan'),
  renderingUnavailable: () =>
    new ApiError(422, 'Rendering is not available on this server: Chromium is not installed. Use render "never", or install Chromium (README, "Rendering pages")'),

  // job webhooks
  webhookEndpointNotFound: () => new ApiError(404, 'Webhook endpoint not found'),
  webhookAddressRefused: (reason: string) => new ApiError(400, `Validation error: url is not reachable for webhooks (${reason})`),
  tooManyWebhookEndpoints: (max: number) => new ApiError(409, `An account can register at most ${max} webhook endpoints`),
  webhookEndpointDisabled: () => new ApiError(409, 'This webhook endpoint is disabled: enable it before sending it a test event'),

  // scheduled refresh
  scheduleNeedsGeneration: () => new ApiError(409, 'A site can be scheduled once it has a completed generation: its options are what the refresh reuses'),
  scheduleNotFound: () => new ApiError(404, 'This site has no schedule'),

  // MCP (mcp/)
  pageNotListed: () => new ApiError(404, 'This page is not listed in the llms.txt of any of your sites'),
  pageUnreadable: (reason: string) => new ApiError(502, `The page could not be read: ${reason}`),
  searchNeedsStoredPages: () =>
    new ApiError(409, "This site's pages are not stored: generate it with showFullText (or the enhanced method) to search them"),
  mcpMethodNotAllowed: () => new ApiError(405, 'The MCP endpoint is stateless: send JSON-RPC messages with POST', {}, { allow: 'POST' }),

  // Idempotency-Key
  idempotencyKeyReused: () => new ApiError(422, 'This Idempotency-Key was already used with a different request'),
  idempotencyKeyInFlight: () =>
    new ApiError(409, 'A request with this Idempotency-Key is still being answered; retry in a moment', {}, { 'retry-after': '1' }),
} as const;

/** The `message` of a successful answer. */
export const messages = {
  accountCreated: 'Account created successfully',
  profileUpdated: 'Profile updated successfully',
  accountDeleted: 'Account deleted successfully',
  apiKeyCreated: 'API key created. Store it now: it is not shown again',
  apiKeyRevoked: 'API key revoked',
  loginSuccessful: 'Login successful',
  loginCodeSent: 'If an account exists for this address, a login code is on its way',
  tokensRefreshed: 'Tokens refreshed successfully',
  loggedOut: 'Logged out successfully',
  siteDeleted: 'Site deleted',
  webhookEndpointCreated: 'Webhook endpoint registered. Store its secret now: it is not shown again',
  webhookEndpointDeleted: 'Webhook endpoint deleted',
  webhookEndpointEnabled: 'Webhook endpoint enabled: new events are delivered to it again',
  webhookTestQueued: 'Test event queued: it is sent within seconds and listed with its attempts in the delivery log',
  scheduleDeleted: 'Schedule removed',
  generationCanceled: 'Generation canceled; its credits were refunded',
  dashboardNotBuilt: 'The web dashboard is not built. Run `npm run build:web`, or use the API at /api/v1 (reference at /docs).',
} as const;

/** What a schedule's `lastOutcome` says about its last check. */
export const scheduleOutcomes = {
  unchanged: 'unchanged',
  regenerated: 'regenerated',
  paused: 'paused',
  generationUnderWay: 'skipped: a generation is under way',
  timedOut: (seconds: number) => `timed out: the listed pages were not all read within ${seconds} s; no job was started and nothing was charged`,
  failed: (reason: string) => `failed: ${reason}`.slice(0, 300),
} as const;

/** Why a schedule's frequency is refused (in `Validation error: …`). */
export const scheduleMessages = {
  tooOften: 'frequency must not run more often than once an hour',
  badFrequency: (words: readonly string[], detail: string) =>
    `frequency must be ${words.join(', ')} or a cron expression in UTC such as "0 6 * * 1" (every Monday at 06:00): ${detail}`,
} as const;

/** What a webhook endpoint's delivery log says beyond the receiver's own answers. */
export const webhookMessages = {
  secretUnreadable: "The endpoint's signing secret cannot be opened (sealed under a previous JWT_SECRET): register the endpoint again",
  disabled: (hours: number) => `Every attempt failed for ${hours} hours: the endpoint is disabled, and its pending deliveries failed. Enable it to receive new events`,
} as const;

/** What the crawler and the webhook sender say about a connection they refuse (in job errors and delivery attempts). */
export const crawlMessages = {
  addressRefused: 'Refused to connect to a private or reserved address',
  robotsDisallowed: "The site's robots.txt does not allow reading this page",
  pageStatus: (status: number) => `The page answered HTTP ${status}`,
} as const;

/** `enhanced` asked for without an AI provider: the one sentence the start, the estimate and the job say. */
const WITHOUT_AI = "as simple, at simple's price: enhanced needs an AI provider, and none is configured (set LLM_PROVIDER)";

/** What a job's `error` and `message` fields say: shown to users like the errors above. */
export const jobMessages = {
  canceled: 'Canceled',
  abandoned: 'The job was interrupted repeatedly (its worker stopped) and was abandoned',
  unexpected: 'The job failed unexpectedly',
  noPages: (url: string) => `No pages could be read from ${url}`,
  scriptRendered: (url: string) =>
    `No readable pages at ${url}: its pages look built by JavaScript in the browser (a script bundle, an empty mount point, little text). Generate again with the option render "auto" to render them`,
  queued: 'Generation started',
  fromCache: 'Served from cache: this site was generated with the same options recently',
  completed: (pages: number, notes: { withoutAi: boolean; leftOut: number | null }) =>
    `Generated from ${pages} page${pages === 1 ? '' : 's'}${notes.withoutAi ? ` ${WITHOUT_AI}` : ''}${
      notes.leftOut ? `; llms-full.txt leaves ${notes.leftOut} of them out to stay within maxTokens` : ''}`,
  overTimeBudget: (seconds: number, maxUrls: number) =>
    `The generation took longer than its time budget (${seconds} s for up to ${maxUrls} pages) and was stopped; the credits were refunded`,
  overMemoryLimit: (megabytes: number) => `The generation needed more memory than its limit (${megabytes} MB) and was stopped; the credits were refunded`,
} as const;

/** What the price of a generation comes with (POST /generate/estimate, the start). */
export const priceMessages = {
  queuedWithoutAi: `Generation started ${WITHOUT_AI}`,
  estimateWithoutAi: `Runs ${WITHOUT_AI}`,
  refundRule: (pagesPerCredit: number) =>
    `The credits are reserved at the start; when the job ends it keeps a credit per ${pagesPerCredit} pages listed and the rest come back (all of them if it fails)`,
} as const;
