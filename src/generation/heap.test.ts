import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

// V8's flags are the process's: threads loading heap.ts at once each turn --expose-gc on and off.
test('threads that load heap.ts at the same time all reach V8 gc and collect', async () => {
  const source = `
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(new URL('./heap.ts', import.meta.url).href)})
      .then((heap) => { heap.collectGarbageBetweenJobs(); parentPort.postMessage('collected'); })
      .catch((error) => parentPort.postMessage(String(error)));`;
  const answers = await Promise.all(
    Array.from({ length: 12 }, () => {
      const worker = new Worker(source, { eval: true });
      return new Promise<unknown>((resolve, reject) => {
        worker.once('message', (message) => void worker.terminate().then(() => resolve(message)));
        worker.once('error', reject);
      });
    }),
  );
  assert.deepEqual(answers, Array(12).fill('collected'));
});
