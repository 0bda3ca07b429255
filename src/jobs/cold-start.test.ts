/**
 * Orchestrators start every replica at once. On an empty PostgreSQL database, two API processes
 * and two workers started together must all come up: migrations and the job queue's creation
 * are serialised across processes. A worker is up here once its queue is ready: the warm-up of its
 * threads that follows (seconds of CPU, two workers on two cores, twenty rounds) tests nothing of
 * the database, and the tests that run jobs through a worker process (faults.test.ts,
 * worker-crash.test.ts) wait for it. PostgreSQL only (PGlite is one process's database).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, test } from 'node:test';
import { createEmptyPostgresDatabase, testDatabaseKinds } from '../testing/databases.ts';
import { temporaryFolderForProcesses } from '../testing/service.ts';

const ROUNDS = 20;
const main = new URL('../main.ts', import.meta.url).pathname;

const processesTemp = temporaryFolderForProcesses('cold-start');

/** Starts one process; resolves with its output once it says it is up, rejects if it exits first. */
function startProcess(role: string[], databaseUrl: string): { up: Promise<string>; stop: () => void } {
  const child = spawn(process.execPath, [main, ...role], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', JWT_SECRET: 'cold-start-secret-that-is-long-enough', LOG_LEVEL: 'info', NODE_ENV: 'test', TMPDIR: processesTemp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const up = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (/job queue ready|llms\.txt service on/.test(output)) resolve(output);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${role.join(' ')} exited with ${code}:\n${output}`)));
  });
  return { up, stop: () => child.kill('SIGKILL') };
}

describe('Four processes started at once on an empty database [postgres]', { skip: !testDatabaseKinds().includes('postgres') && 'PostgreSQL is not in TEST_DATABASES' }, () => {
  test(`all come up, ${ROUNDS} times in a row`, { timeout: ROUNDS * 30_000 }, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const database = await createEmptyPostgresDatabase();
      const processes = [['serve', '--no-worker'], ['serve', '--no-worker'], ['worker'], ['worker']].map((role) => startProcess(role, database.url));
      try {
        const started = await Promise.allSettled(processes.map((p) => p.up));
        const failed = started.filter((s) => s.status === 'rejected');
        assert.equal(failed.length, 0, `round ${round}: ${failed.map((f) => String((f as PromiseRejectedResult).reason)).join('\n')}`);
      } finally {
        for (const p of processes) p.stop();
        await new Promise((resolve) => setTimeout(resolve, 200));
        await database.drop();
      }
    }
  });
});
