// Sessions under attack: forged-but-signed tokens, and sessions that outlive the key or the
// time they were granted for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { describeOnEachDatabase } from '../testing/service.ts';

const API = '/api/v1';

describeOnEachDatabase('Session security', (service) => {
  const sign = (claims: { sub?: string; exp?: number }) => {
    const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt();
    if (claims.sub) jwt.setSubject(claims.sub);
    if (claims.exp) jwt.setExpirationTime(claims.exp);
    return jwt.sign(new TextEncoder().encode(service().deps.config.jwtSecret));
  };

  test('an access token signed with the real secret is refused without an expiry or a subject', async () => {
    const account = await service().createAccount();
    const inAnHour = Math.floor(service().clock.now().getTime() / 1000) + 3600;
    const valid = await service().request('GET', `${API}/accounts/me`, { token: await sign({ sub: account.id, exp: inAnHour }) });
    assert.equal(valid.status, 200);
    for (const token of [await sign({ sub: account.id }), await sign({ exp: inAnHour })]) {
      const res = await service().request('GET', `${API}/accounts/me`, { token });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { message: 'Unauthorized' });
    }
  });
});
