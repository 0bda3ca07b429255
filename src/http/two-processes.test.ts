/**
 * Keys, balances and job statuses are remembered by each process (no database round trip per
 * request); a revoked key must still be refused at once by the revoking process and within a
 * second by every other, and a change made through one process is seen by the other within a
 * second. Two service processes on one PostgreSQL database.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { createPostgresDatabase, testDatabaseKinds } from '../testing/databases.ts';
import { freePort } from '../testing/service.ts';

const main = new URL('../main.ts', import.meta.url).pathname;

describe('Two service processes on one PostgreSQL: revocations and changes reach both [postgres]', { skip: !testDatabaseKinds().includes('postgres') && 'PostgreSQL is not in TEST_DATABASES' }, () => {
  let drop: () => Promise<void>;
  const processes: ChildProcess[] = [];
  const bases: string[] = [];

  before(async () => {
    const database = await createPostgresDatabase();
    drop = database.drop;
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const child = spawn(process.execPath, [main, 'serve', '--no-worker'], {
        env: { ...process.env, DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', JWT_SECRET: 'revocation-secret-that-is-long-enough', LOG_LEVEL: 'warn', NODE_ENV: 'test' },
        stdio: 'ignore',
      });
      processes.push(child);
      bases.push(`http://127.0.0.1:${port}/api/v1`);
    }
    for (const base of bases) {
      for (let i = 0; ; i++) {
        if ((await fetch(`${base}/health`).catch(() => null))?.status === 200) break;
        assert.ok(i < 300, `${base} did not come up`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  });
  after(async () => {
    for (const child of processes) child.kill('SIGKILL');
    await drop?.();
  });

  const call = (base: string, method: string, path: string, token: string, body?: object) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  test('the revoking process refuses it on the next request, the other within a second', async () => {
    const [a, b] = bases;
    const signUp = await fetch(`${a}/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'two@example.com', firstName: 'Two' }) });
    const { apiKey } = (await signUp.json()) as { apiKey: string };
    const created = (await (await call(a, 'POST', '/api-keys', apiKey, { name: 'doomed' })).json()) as { key: string; apiKey: { id: string } };
    // Both processes have seen (and remembered) the key.
    assert.equal((await call(a, 'GET', '/credits/balance/api', created.key)).status, 200);
    assert.equal((await call(b, 'GET', '/credits/balance/api', created.key)).status, 200);

    assert.equal((await call(a, 'DELETE', `/api-keys/${created.apiKey.id}`, apiKey)).status, 200);
    const revokedAt = Date.now();
    assert.equal((await call(a, 'GET', '/credits/balance/api', created.key)).status, 401);
    let refusedAfter = -1;
    while (Date.now() - revokedAt < 1000) {
      if ((await call(b, 'GET', '/credits/balance/api', created.key)).status === 401) {
        refusedAfter = Date.now() - revokedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(refusedAfter >= 0, 'the other process still accepted the key a second after its revocation');
    assert.equal((await call(b, 'GET', '/credits/balance/api', apiKey)).status, 200, 'the account\'s other key still works');
  });

  test('a charge and a cancel made through one process are seen by the other within a second', async () => {
    const [a, b] = bases;
    const signUp = await fetch(`${a}/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'changes@example.com', firstName: 'Two' }) });
    const { apiKey } = (await signUp.json()) as { apiKey: string };
    const within = async (path: string, accept: (body: any) => boolean) => {
      const started = Date.now();
      for (;;) {
        const body: any = await (await call(b, 'GET', path, apiKey)).json();
        if (accept(body)) return;
        assert.ok(Date.now() - started < 1000, `${path} on the other process still answered ${JSON.stringify(body)} after a second`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await within('/credits/balance/api', (body) => body.balance === 20);
    const started: any = await (await call(a, 'POST', '/generate', apiKey, { url: 'https://example.com/', options: { maxUrls: 50, generationMethod: 'simple' } })).json();
    await within('/credits/balance/api', (body) => body.balance === 15);
    await within(`/generate/${started.jobId}`, (body) => body.status === 'pending');
    assert.equal((await call(a, 'DELETE', `/generate/${started.jobId}`, apiKey)).status, 200);
    await within(`/generate/${started.jobId}`, (body) => body.status === 'failed');
    await within('/credits/balance/api', (body) => body.balance === 20);
  });
});
