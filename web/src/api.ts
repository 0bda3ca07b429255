/**
 * The public API, called with JWT session tokens: the access token lives in memory, the refresh
 * token in localStorage. A 401 triggers one silent refresh (shared by concurrent calls) and a
 * retry; when that fails the session ends. Network errors and 5xx answers raise the outage banner.
 */
import createClient from 'openapi-fetch';
import type { paths } from '../../src/client/api-types.ts';

const REFRESH_KEY = 'llmstxt.refreshToken';

export type Tokens = Answer<'/api/v1/auth/refresh', 'post'>['tokens'];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
  /** The form field a validation message names (`Validation error: firstName must …`), if any. */
  get field(): string | undefined {
    const match = /^Validation error: (?:body\/)?\/?([A-Za-z]+)/.exec(this.message);
    return match?.[1];
  }
}

type Listener = () => void;
const listeners = new Set<Listener>();
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function notify() {
  for (const listener of listeners) listener();
}

let accessToken: string | null = null;
/** Paths whose last call failed with a network error or a 5xx: the outage banner shows while any does. */
const failing = new Set<string>();
let sessionEndedReason: string | null = null;

export const session = {
  get loggedIn(): boolean {
    return accessToken !== null || localStorage.getItem(REFRESH_KEY) !== null;
  },
  get outage(): boolean {
    return failing.size > 0;
  },
  get endedReason(): string | null {
    return sessionEndedReason;
  },
  start(tokens: Tokens) {
    accessToken = tokens.accessToken;
    localStorage.setItem(REFRESH_KEY, tokens.refreshToken);
    sessionEndedReason = null;
    notify();
  },
  end(reason: string | null = null) {
    accessToken = null;
    localStorage.removeItem(REFRESH_KEY);
    sessionEndedReason = reason;
    notify();
  },
};

function setOutage(path: string, down: boolean) {
  const key = path.split('?')[0]!;
  if (failing.has(key) === down) return;
  if (down) failing.add(key);
  else failing.delete(key);
  notify();
}

/** The paths the server's routes define (generated from its OpenAPI document: `npm run client:generate`). */
export type { paths } from '../../src/client/api-types.ts';

/** A JSON answer's type: `Answer<'/api/v1/sites/{siteId}', 'get'>`. */
export type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R }
  ? R extends { 200: { content: { 'application/json': infer J } } }
    ? J
    : R extends { 201: { content: { 'application/json': infer J } } }
      ? J
      : never
  : never;

async function send(request: Request, token: string | null): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (token) request.headers.set('authorization', `Bearer ${token}`);
  try {
    const response = await fetch(request);
    setOutage(path, response.status >= 500);
    return response;
  } catch {
    setOutage(path, true);
    throw new ApiError(0, 'The service cannot be reached. Check your connection and try again.');
  }
}

let refreshing: Promise<boolean> | null = null;

/** Trades the stored refresh token for a new token set, once for all concurrent callers. */
export function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = localStorage.getItem(REFRESH_KEY);
    if (!refreshToken) return false;
    try {
      const { data, response } = await publicApi.POST('/api/v1/auth/refresh', { body: { refreshToken } });
      if (!data) {
        if (response.status < 500) session.end('Your session has expired. Please log in again.');
        return false;
      }
      accessToken = data.tokens.accessToken;
      localStorage.setItem(REFRESH_KEY, data.tokens.refreshToken);
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Why a session call could not be made: the session ended, or the service could not refresh it. */
function sessionError(): ApiError {
  if (session.loggedIn) return new ApiError(503, 'The service is having trouble keeping you logged in. Please try again in a moment.');
  return new ApiError(401, 'Your session has expired. Please log in again.');
}

/** The session's transport: its access token on every call, one silent refresh and a retry on a 401. */
async function sessionFetch(request: Request): Promise<Response> {
  if (!accessToken && !(await refresh())) throw sessionError();
  const retry = request.clone();
  const sentWith = accessToken;
  const response = await send(request, sentWith);
  if (response.status !== 401) return response;
  // A concurrent call may have refreshed the session while this one was answered: its new token will do.
  if (accessToken === sentWith && !(await refresh())) throw sessionError();
  return send(retry, accessToken);
}

/** Calls made as the logged-in user. */
export const api = createClient<paths>({ fetch: sessionFetch });
/** Calls without a session: public pages, sign-up, login (with an API key in `headers` where one is needed). */
export const publicApi = createClient<paths>({ fetch: (request) => send(request, null) });

/** The answer's data, or an ApiError with the service's message. */
export async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  let message = `Request failed (${response.status})`;
  if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') message = error.message;
  if (response.status >= 500) message = `The service is having trouble (${response.status}). Please try again in a moment.`;
  throw new ApiError(response.status, message, error);
}

/** An API key as a request's credentials. */
export const withKey = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` });

export async function logout(): Promise<void> {
  try {
    if (accessToken || localStorage.getItem(REFRESH_KEY)) await answer(api.POST('/api/v1/auth/logout'));
  } catch {
    /* the local session ends anyway */
  }
  session.end();
}

export const formatCents = (cents: number) => `$${(cents / 100).toFixed(2)}`;
export const formatDate = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');
/** A sitemap's lastmod is often a bare date (midnight UTC): shown as that date, not as a local time. */
export const formatLastModified = (value: string) =>
  /^\d{4}-\d{2}-\d{2}(T00:00:00(\.0+)?(Z|\+00:00))?$/.test(value) ? value.slice(0, 10) : formatDate(value);

/** The signed-in account, as GET /accounts/me answers it. */
export type Me = Answer<'/api/v1/accounts/me', 'get'>['account'];
