/**
 * The public API, called with JWT session tokens: the access token lives in memory, the refresh
 * token in localStorage. A 401 triggers one silent refresh (shared by concurrent calls) and a
 * retry; when that fails the session ends. Network errors and 5xx answers raise the outage banner.
 */
const BASE = '/api/v1';
const REFRESH_KEY = 'llmstxt.refreshToken';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  tokenType: string;
}

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

export type Auth = 'jwt' | 'none' | { apiKey: string };

export interface CallOptions {
  body?: unknown;
  auth?: Auth;
  /** answer the raw Response (for downloads) */
  raw?: boolean;
}

async function send(method: string, path: string, options: CallOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(BASE + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
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
      const response = await send('POST', '/auth/refresh', { body: { refreshToken } }, null);
      setOutage('/auth/refresh', response.status >= 500);
      if (!response.ok) {
        if (response.status >= 500) return false;
        session.end('Your session has expired. Please log in again.');
        return false;
      }
      const data = (await response.json()) as { tokens: Tokens };
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

async function toError(response: Response): Promise<ApiError> {
  let message = `Request failed (${response.status})`;
  let body: unknown;
  try {
    body = await response.json();
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') message = body.message;
  } catch {
    /* not JSON */
  }
  if (response.status >= 500) message = `The service is having trouble (${response.status}). Please try again in a moment.`;
  return new ApiError(response.status, message, body);
}

export async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const auth = options.auth ?? 'jwt';
  let token: string | null = null;
  if (auth === 'jwt') {
    if (!accessToken && !(await refresh())) throw sessionError();
    token = accessToken;
  } else if (auth !== 'none') {
    token = auth.apiKey;
  }
  let response = await send(method, path, options, token);
  if (response.status === 401 && auth === 'jwt') {
    if (await refresh()) response = await send(method, path, options, accessToken);
    else throw sessionError();
  }
  setOutage(path, response.status >= 500);
  if (!response.ok) throw await toError(response);
  if (options.raw) return response as T;
  const type = response.headers.get('content-type') ?? '';
  return (type.includes('application/json') ? await response.json() : await response.text()) as T;
}

export async function logout(): Promise<void> {
  try {
    if (accessToken || localStorage.getItem(REFRESH_KEY)) await call('POST', '/auth/logout');
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
export interface Me {
  id: string;
  email: string;
  firstName: string;
  lastName: string | null;
  company: string | null;
  plan: string;
  creditBalance: number;
}
