import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from '../db/orm.ts';
import { loginCodes } from '../db/schema.ts';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

const API = '/api/v1';
const codeIn = (service: TestService, to: string) => {
  const mail = service.mailbox.filter((m) => m.to === to).at(-1);
  assert.ok(mail, `no e-mail to ${to}`);
  return /\b(\d{6})\b/.exec(mail.text)![1];
};

describeOnEachDatabase('Login by e-mail code', (service) => {
  test('sends a 6-digit code to a known address and exchanges it once for a working token set', async () => {
    const { email, id } = await service().createAccount();
    const asked = await service().request('POST', `${API}/auth/login/email`, { body: { email: email.toUpperCase() } });
    assert.equal(asked.status, 202);
    assert.equal(asked.body.success, true);
    const code = codeIn(service(), email);

    const [stored] = await service().db.select().from(loginCodes).where(eq(loginCodes.accountId, id));
    assert.ok(!stored.codeHash.includes(code), 'the code is stored only as a hash');

    const verified = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code } });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.tokens.tokenType, 'Bearer');
    assert.equal(verified.body.tokens.expiresIn, 900);
    const balance = await service().request('GET', `${API}/credits/balance`, { token: verified.body.tokens.accessToken });
    assert.equal(balance.status, 200);

    const again = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code } });
    assert.deepEqual([again.status, again.body], [401, { message: 'Invalid or expired login code' }]);
  });

  test('answers 202 for an unknown address too, and sends nothing', async () => {
    const before = service().mailbox.length;
    const res = await service().request('POST', `${API}/auth/login/email`, { body: { email: 'nobody-here@example.com' } });
    assert.equal(res.status, 202);
    assert.equal(service().mailbox.length, before);
    const verify = await service().request('POST', `${API}/auth/login/verify`, { body: { email: 'nobody-here@example.com', code: '123456' } });
    assert.equal(verify.status, 401);
  });

  test('burns the code after 5 wrong tries, so even the right code then fails', async () => {
    const { email } = await service().createAccount();
    await service().request('POST', `${API}/auth/login/email`, { body: { email } });
    const code = codeIn(service(), email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code: wrong } });
      assert.equal(res.status, 401);
    }
    const right = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code } });
    assert.equal(right.status, 401);
  });

  test('refuses a code after 10 minutes, and an older code once a newer one was sent', async () => {
    const { email } = await service().createAccount();
    await service().request('POST', `${API}/auth/login/email`, { body: { email } });
    const first = codeIn(service(), email);
    await service().request('POST', `${API}/auth/login/email`, { body: { email } });
    const second = codeIn(service(), email);
    if (first !== second) {
      const old = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code: first } });
      assert.equal(old.status, 401);
    }
    service().clock.advance(10 * 60_000 + 1000);
    const late = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code: second } });
    assert.deepEqual([late.status, late.body], [401, { message: 'Invalid or expired login code' }]);
  });

  test('answers 400 for malformed input', async () => {
    for (const [path, body] of [
      ['/auth/login/email', {}],
      ['/auth/login/email', { email: 'not-an-email' }],
      ['/auth/login/verify', { email: 'a@example.com', code: '12345' }],
      ['/auth/login/verify', { email: 'a@example.com', code: 'abcdef' }],
      ['/auth/login/verify', { email: 'a@example.com' }],
    ] as const) {
      const res = await service().request('POST', `${API}${path}`, { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(res.body.message, /^Validation error: /);
    }
  });
});
