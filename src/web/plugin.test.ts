import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Fastify from 'fastify';
import type { App } from '../http/types.ts';
import { registerWebApp } from './plugin.ts';

test('without a build, / answers that the dashboard is not built and the service still starts', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'web-dist-'));
  const warnings: string[] = [];
  const app = Fastify();
  app.log.warn = ((...args: unknown[]) => void warnings.push(String(args.at(-1)))) as typeof app.log.warn;
  try {
    await registerWebApp(app as unknown as App, empty);
    const response = await app.inject({ method: 'GET', url: '/' });
    assert.equal(response.statusCode, 200);
    assert.match(response.json().message, /dashboard is not built/);
    assert.equal((await app.inject({ method: 'GET', url: '/dashboard' })).statusCode, 404);
    assert.match(warnings.join(' '), /not built/);
  } finally {
    await app.close();
    rmSync(empty, { recursive: true, force: true });
  }
});
