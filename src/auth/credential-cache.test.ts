import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Caller } from '../http/types.ts';
import { CredentialCache } from './credential-cache.ts';

const alice: Caller = { accountId: 'account-a', via: 'apiKey', apiKeyId: 'key-a' };

/** A lookup the test finishes by hand, counting how often it was asked. */
function manualLookup() {
  const finishes: Array<(caller: Caller | null) => void> = [];
  return { finishes, lookup: () => new Promise<Caller | null>((resolve) => finishes.push(resolve)) };
}

describe('CredentialCache', () => {
  test('remembers whom a credential stands for, and answers it without a promise', async () => {
    const cache = new CredentialCache();
    assert.deepEqual(await cache.resolve('key:a', async () => alice), alice);
    assert.deepEqual(cache.resolve('key:a', async () => assert.fail('looked up again')), alice);
  });

  test('requests that miss at once share one lookup', async () => {
    const cache = new CredentialCache();
    const { finishes, lookup } = manualLookup();
    const together = [cache.resolve('key:a', lookup), cache.resolve('key:a', lookup), cache.resolve('key:a', lookup)];
    assert.equal(finishes.length, 1);
    finishes[0](alice);
    assert.deepEqual(await Promise.all(together), [alice, alice, alice]);
  });

  test('a lookup under way when the key is revoked is answered but not remembered; the next request looks up again', async () => {
    const cache = new CredentialCache();
    const { finishes, lookup } = manualLookup();
    const before = cache.resolve('key:a', lookup);
    cache.forget({ apiKeyId: 'key-a' });
    const after = cache.resolve('key:a', lookup);
    assert.equal(finishes.length, 2, 'a request after the revocation does not share the earlier lookup');
    finishes[0](alice);
    finishes[1](null);
    assert.deepEqual(await before, alice);
    assert.equal(await after, null);
    assert.equal(await cache.resolve('key:a', async () => null), null, 'nothing stale was remembered');
  });

  test('an unknown credential is not remembered, nor a failed lookup', async () => {
    const cache = new CredentialCache();
    assert.equal(await cache.resolve('key:nobody', async () => null), null);
    await assert.rejects(Promise.resolve(cache.resolve('key:a', () => Promise.reject(new Error('connection lost')))), /connection lost/);
    assert.deepEqual(await cache.resolve('key:nobody', async () => alice), alice);
    assert.deepEqual(await cache.resolve('key:a', async () => alice), alice);
  });
});
