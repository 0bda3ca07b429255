import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import dns from 'node:dns';
import {
  AddressRefusedError,
  assertAddressAllowed,
  assertHostResolvesAllowed,
  classifyAddress,
  createGuardedAgent,
  createGuardedLookup,
  type ResolvedAddress,
} from './address-guard.ts';
import { startSite, type TestSite } from '../testing/test-site.ts';
import { crawlMessages } from '../errors.ts';

describe('classifyAddress', () => {
  const refused: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a00:1', 'private'],
    ['2001:db8::1', 'reserved'],
  ];
  for (const [address, range] of refused) {
    test(`refuses ${address} as ${range}`, () => {
      const cls = classifyAddress(address);
      assert.deepEqual(cls, { range, isPublic: false });
    });
  }

  test('allows ordinary public addresses, IPv4 and IPv6, and public IPv4-mapped ones', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '[2a00:1450::1]']) {
      assert.equal(classifyAddress(address)?.isPublic, true, address);
    }
  });

  test('returns null for what is not an IP address', () => {
    assert.equal(classifyAddress('example.com'), null);
    assert.equal(classifyAddress(''), null);
  });

  test('the error never names the address: one message for every kind, the address and its range kept for the log', () => {
    for (const [address, range] of [['10.20.30.40', 'private'], ['169.254.169.254', 'linkLocal'], ['::1', 'loopback']]) {
      assert.throws(() => assertAddressAllowed(address, {}), { message: 'Refused to connect to a private or reserved address', address, range });
    }
  });

  test('allowPrivate lifts the guard; isAllowedAddress lifts it for exactly the addresses it names', () => {
    assert.doesNotThrow(() => assertAddressAllowed('10.0.0.1', { allowPrivate: true }));
    const onlyLoopback = { isAllowedAddress: (a: string) => a === '127.0.0.1' };
    assert.doesNotThrow(() => assertAddressAllowed('127.0.0.1', onlyLoopback));
    assert.throws(() => assertAddressAllowed('127.0.0.2', onlyLoopback), AddressRefusedError);
    assert.throws(() => assertAddressAllowed('10.0.0.1', onlyLoopback), AddressRefusedError);
  });
});

function lookupOnce(resolved: ResolvedAddress[], options: dns.LookupOptions) {
  const lookup = createGuardedLookup({ resolve: async () => resolved });
  return new Promise<{ err: Error | null; address?: unknown; family?: number }>((resolve) => {
    lookup('site.test', options, (err, address, family) => resolve({ err, address, family }));
  });
}

describe('guarded DNS lookup', () => {
  test('refuses when the resolver answers only private addresses', async () => {
    const { err } = await lookupOnce([{ address: '192.168.0.7', family: 4 }], { all: true });
    assert.ok(err instanceof AddressRefusedError);
    assert.equal(err.message, crawlMessages.addressRefused);
  });

  test('drops private answers and keeps the public ones', async () => {
    const answers = [
      { address: '127.0.0.1', family: 4 },
      { address: '93.184.216.34', family: 4 },
      { address: '::1', family: 6 },
    ];
    assert.deepEqual(await lookupOnce(answers, { all: true }), { err: null, address: [answers[1]], family: undefined });
    assert.deepEqual(await lookupOnce(answers, {}), { err: null, address: '93.184.216.34', family: 4 });
  });
});

describe('checking a host before a job starts', () => {
  const answering = (...addresses: string[]) => ({ resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) });

  test('refuses a private literal, and a name when any of its answers is refused', async () => {
    await assert.rejects(assertHostResolvesAllowed('10.20.30.40', answering(), 1000), AddressRefusedError);
    await assert.rejects(assertHostResolvesAllowed('[::1]', answering(), 1000), AddressRefusedError);
    await assert.rejects(assertHostResolvesAllowed('intranet.test', answering('93.184.216.34', '10.20.30.40'), 1000), AddressRefusedError);
    await assertHostResolvesAllowed('site.test', answering('93.184.216.34'), 1000);
    await assertHostResolvesAllowed('intranet.test', { ...answering('10.20.30.40'), allowPrivate: true }, 1000);
  });

  test('lets a host pass when its lookup fails or outlasts the timeout (the crawler checks again)', async () => {
    await assertHostResolvesAllowed('missing.test', { resolve: async () => Promise.reject(new Error('ENOTFOUND')) }, 1000);
    const started = performance.now();
    await assertHostResolvesAllowed('slow.test', { resolve: () => new Promise(() => {}) }, 50);
    assert.ok(performance.now() - started < 1000);
  });
});

describe('guarded agent (the address actually connected to)', () => {
  let site: TestSite;
  let decoy: TestSite;
  before(async () => {
    site = await startSite((_req, res) => res.end('reached'));
    // 127.0.0.2 is loopback too; a server there must never be reached by a guarded agent.
    decoy = await startSite((_req, res) => res.end('secret'), '127.0.0.2');
  });
  after(async () => {
    await site.close();
    await decoy.close();
  });

  const resolveTo = (address: string) => async () => [{ address, family: 4 }];

  async function get(agent: ReturnType<typeof createGuardedAgent>, origin: string) {
    try {
      const res = await agent.request({ origin, path: '/', method: 'GET' });
      return await res.body.text();
    } finally {
      await agent.close();
    }
  }

  test('refuses a hostname whose DNS answer is loopback, before any request reaches it', async () => {
    const agent = createGuardedAgent({ resolve: resolveTo('127.0.0.1') });
    await assert.rejects(get(agent, `http://site.test:${site.port}`), {
      message: crawlMessages.addressRefused,
    });
    assert.equal(site.hits.length, 0);
  });

  test('the same request succeeds when the guard is lifted (so the refusal above is the guard)', async () => {
    const agent = createGuardedAgent({ resolve: resolveTo('127.0.0.1'), allowPrivate: true });
    assert.equal(await get(agent, `http://site.test:${site.port}`), 'reached');
  });

  test('refuses IP literals without a lookup', async () => {
    const agent = createGuardedAgent({ resolve: async () => assert.fail('no lookup for literals') });
    await assert.rejects(get(agent, `http://127.0.0.1:${site.port}`), AddressRefusedError);
    await assert.rejects(get(createGuardedAgent({}), 'http://10.0.0.1'), { message: crawlMessages.addressRefused });
  });

  test('isAllowedAddress lets exactly 127.0.0.1 through; another loopback address stays refused', async () => {
    const onlyLoopback = (a: string) => a === '127.0.0.1';
    assert.equal(await get(createGuardedAgent({ isAllowedAddress: onlyLoopback }), site.origin), 'reached');
    const agent = createGuardedAgent({ isAllowedAddress: onlyLoopback, resolve: resolveTo('127.0.0.2') });
    await assert.rejects(get(agent, `http://decoy.test:${decoy.port}`), AddressRefusedError);
    assert.equal(decoy.hits.length, 0);
  });
});
