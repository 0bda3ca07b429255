import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { startTestService } from './service.ts';

// A suite whose service could not listen once hung CI for 87 minutes: the built service's
// workers kept the test file alive after its tests were cancelled.
test('a test service that cannot take its port fails, and leaves nothing running', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as { port: number };
  const before = process.getActiveResourcesInfo().filter((kind) => kind !== 'TCPServerWrap').length;
  try {
    await assert.rejects(
      startTestService('pglite', { env: { PUBLIC_URL: `http://127.0.0.1:${port}` } }),
      (error: NodeJS.ErrnoException) => error.code === 'EADDRINUSE',
    );
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = process.getActiveResourcesInfo().filter((kind) => kind !== 'TCPServerWrap');
  assert.ok(after.length <= before, `still running: ${after.join(', ')}`);
});
