/**
 * A real service on 127.0.0.1 for integration tests: real HTTP, a real database of each kind,
 * a clock the test moves. `describeOnEachDatabase` runs a suite once per database kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import pino from 'pino';
import { buildApp } from '../app.ts';
import type { AppDeps } from '../deps.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig, type Config } from '../config.ts';
import type { App } from '../http/types.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { createPaymentProvider } from '../billing/create-provider.ts';
import type { PaymentProvider } from '../billing/provider.ts';
import { createTestDatabase, testDatabaseKinds, type DatabaseKind, type TestDatabase } from './databases.ts';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** an API key or an access token, sent as `Authorization: Bearer …` */
  token?: string;
  headers?: Record<string, string>;
  /** sent as-is instead of JSON */
  rawBody?: string;
}

export class TestService {
  app: App;
  readonly deps: AppDeps;
  readonly clock: ManualClock;
  readonly baseUrl: string;
  private readonly drop: () => Promise<void>;
  private readonly sent: MailMessage[];

  constructor(app: App, deps: AppDeps, clock: ManualClock, baseUrl: string, drop: () => Promise<void>, sent: MailMessage[] = []) {
    this.app = app;
    this.deps = deps;
    this.clock = clock;
    this.baseUrl = baseUrl;
    this.drop = drop;
    this.sent = sent;
  }

  /**
   * Stops the service (its API, workers and loops, as a shutdown does) and starts it again on the
   * same database, port and clock.
   */
  async restart(): Promise<void> {
    await this.app.close();
    this.app = await listening(this.deps, new URL(this.baseUrl));
  }

  /** Every e-mail the service sent, newest last. */
  get mailbox(): MailMessage[] {
    return this.sent;
  }

  get db() {
    return this.deps.database.db;
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: any = text;
    if (response.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  /** Signs up a fresh account (unique e-mail) and answers its id and API key. */
  async createAccount(overrides: Record<string, unknown> = {}): Promise<{ id: string; apiKey: string; email: string }> {
    const email = `user-${Math.random().toString(36).slice(2)}@example.com`;
    const response = await this.request('POST', '/api/v1/accounts', { body: { email, firstName: 'Test', ...overrides } });
    if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${response.text}`);
    return { id: response.body.account.id, apiKey: response.body.apiKey, email: response.body.account.email };
  }

  async login(apiKey: string): Promise<{ accessToken: string; refreshToken: string }> {
    const response = await this.request('POST', '/api/v1/auth/login', { token: apiKey });
    if (response.status !== 200) throw new Error(`login failed: ${response.status} ${response.text}`);
    return response.body.tokens;
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.drop();
  }
}

export interface TestServiceOptions {
  /** run jobs in this service (default true) */
  workers?: boolean;
  /** ready the job threads before taking jobs, as `npm start` does (see startJobRuntime); default false */
  warmUp?: boolean;
  env?: Record<string, string>;
  configure?: (config: Config) => void;
  /** Outgoing e-mail of the test's making; default: a mailbox the test reads (`service.mailbox`). */
  mailer?: Mailer;
  /** A payment provider of the test's making (e.g. Stripe pointed at a fake server); default: the configuration's. */
  payments?: (deps: Pick<AppDeps, 'config' | 'database' | 'clock'>) => PaymentProvider;
}

/**
 * A temporary folder (TMPDIR) for the service processes a test file starts and may kill with
 * SIGKILL, deleted once the file's tests are done: such a process cannot delete what it keeps
 * there (its page worker bundle, see page-worker-bundle.ts).
 */
export function temporaryFolderForProcesses(name: string): string {
  const folder = mkdtempSync(join(tmpdir(), `${name}-`));
  after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** A port nobody listens on now, so the service knows its public URL before it is built. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startTestService(kind: DatabaseKind, options: TestServiceOptions = {}): Promise<TestService> {
  const database = await createTestDatabase(kind);
  try {
    // Another suite can take the free port between the probe and the listen: a new port, then.
    for (let attempt = 1; ; attempt++) {
      try {
        return await serviceOnFreePort(database, options);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error;
      }
    }
  } catch (error) {
    await database.drop();
    throw error;
  }
}

async function serviceOnFreePort(database: TestDatabase, options: TestServiceOptions): Promise<TestService> {
  const port = await freePort();
  const config = loadConfig({
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256',
    DATA_DIR: '/nonexistent-test-data-dir',
    RATE_LIMIT_PER_CALLER: '100000',
    RATE_LIMIT_JOB_STARTS: '100000',
    RATE_LIMIT_PUBLIC_PER_IP: '100000',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  options.configure?.(config);
  const clock = new ManualClock();
  const mailbox: MailMessage[] = [];
  const mailer = options.mailer ?? { send: async (message: MailMessage) => void mailbox.push(message) };
  const base = { config, database: database.handle, clock };
  const deps: AppDeps = {
    ...base,
    mailer,
    runWorkers: options.workers ?? true,
    warmUp: options.warmUp,
    payments: options.payments?.(base) ?? (await createPaymentProvider(base, pino({ level: 'silent' }))),
  };
  const app = await listening(deps, new URL(config.publicUrl));
  return new TestService(app, deps, clock, config.publicUrl, database.drop, mailbox);
}

/** A built service listening on its public URL's port; closed again (workers and all) when it cannot listen. */
async function listening(deps: AppDeps, publicUrl: URL): Promise<App> {
  const app = await buildApp(deps);
  try {
    await app.listen({ port: Number(publicUrl.port), host: '127.0.0.1' });
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

/** Runs the suite once per database kind, each with a service of its own. */
export function describeOnEachDatabase(
  title: string,
  suite: (service: () => TestService, kind: DatabaseKind) => void,
  options: TestServiceOptions = {},
): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${title} [${kind}]`, () => {
      let service: TestService | undefined;
      before(async () => {
        service = await startTestService(kind, options);
      });
      after(async () => {
        await service?.close();
      });
      suite(() => {
        if (!service) throw new Error('test service did not start');
        return service;
      }, kind);
    });
  }
}
