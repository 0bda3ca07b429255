// Sessions under attack: forged-but-signed tokens, and sessions that outlive the key or the
// time they were granted for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { describeOnEachDatabase, type TestService } from '../testing/service.ts';

const API = '/api/v1';
const DAY_MS = 24 * 3600_000;

const codeIn = (service: TestService, to: string) => {
  const mail = service.mailbox.filter((m) => m.to === to).at(-1);
  assert.ok(mail, `no e-mail to ${to}`);
  return /\b(\d{6})\b/.exec(mail.text)![1];
};

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

  test('revoking an API key ends the sessions started with it, and only those', async () => {
    const account = await service().createAccount();
    const second = await service().request('POST', `${API}/api-keys`, { token: account.apiKey, body: { name: 'laptop' } });
    const fromSecond = await service().login(second.body.key);
    const fromFirst = await service().login(account.apiKey);
    const revoked = await service().request('DELETE', `${API}/api-keys/${second.body.apiKey.id}`, { token: account.apiKey });
    assert.equal(revoked.status, 200);

    const refused = await service().request('POST', `${API}/auth/refresh`, { body: { refreshToken: fromSecond.refreshToken } });
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { message: 'Invalid or expired refresh token' });
    const kept = await service().request('POST', `${API}/auth/refresh`, { body: { refreshToken: fromFirst.refreshToken } });
    assert.equal(kept.status, 200);
  });

  test('a session ends 30 days after its login, however often it is refreshed', async () => {
    const account = await service().createAccount();
    let { refreshToken } = await service().login(account.apiKey);
    for (let day = 6; day < 30; day += 6) {
      service().clock.advance(6 * DAY_MS);
      const refreshed = await service().request('POST', `${API}/auth/refresh`, { body: { refreshToken } });
      assert.equal(refreshed.status, 200, `day ${day}`);
      refreshToken = refreshed.body.tokens.refreshToken;
    }
    service().clock.advance(6 * DAY_MS); // day 30
    const ended = await service().request('POST', `${API}/auth/refresh`, { body: { refreshToken } });
    assert.equal(ended.status, 401);
    assert.deepEqual(ended.body, { message: 'Invalid or expired refresh token' });
  });

  test('parallel guesses of a login code get no more than five tries', async () => {
    const { email } = await service().createAccount();
    await service().request('POST', `${API}/auth/login/email`, { body: { email } });
    const code = codeIn(service(), email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const guesses = await Promise.all(
      Array.from({ length: 12 }, () => service().request('POST', `${API}/auth/login/verify`, { body: { email, code: wrong } })),
    );
    assert.ok(guesses.every((g) => g.status === 401));
    const right = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code } });
    assert.equal(right.status, 401, 'the code is burnt after five wrong tries');
  });

  test('an account gets at most five codes and fifteen tries an hour', async () => {
    const { email } = await service().createAccount();
    const ask = () => service().request('POST', `${API}/auth/login/email`, { body: { email } });
    const mails = () => service().mailbox.filter((m) => m.to === email).length;
    for (let i = 0; i < 3; i++) {
      assert.equal((await ask()).status, 202);
      const code = codeIn(service(), email);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      for (let t = 0; t < 5; t++) await service().request('POST', `${API}/auth/login/verify`, { body: { email, code: wrong } });
    }
    assert.equal((await ask()).status, 202);
    const fourth = codeIn(service(), email);
    const capped = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code: fourth } });
    assert.equal(capped.status, 401, 'fifteen tries this hour: even the right code waits');
    assert.equal((await ask()).status, 202);
    assert.equal((await ask()).status, 202);
    assert.equal(mails(), 5, 'the sixth request of the hour sends nothing');

    service().clock.advance(61 * 60_000);
    assert.equal((await ask()).status, 202);
    const login = await service().request('POST', `${API}/auth/login/verify`, { body: { email, code: codeIn(service(), email) } });
    assert.equal(login.status, 200);
  });
});

describeOnEachDatabase(
  'E-mail login with a mail server that never answers',
  (service) => {
    test('the 202 does not wait for the mail: known and unknown addresses answer alike', async () => {
      const { email } = await service().createAccount();
      for (const address of [email, 'nobody@example.com']) {
        const res = await Promise.race([
          service().request('POST', `${API}/auth/login/email`, { body: { email: address } }),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000)),
        ]);
        assert.ok(res, `${address}: no answer while the mailer hangs`);
        assert.equal(res.status, 202);
        assert.deepEqual(res.body, { success: true, message: 'If an account exists for this address, a login code is on its way' });
      }
    });
  },
  { mailer: { send: () => new Promise<void>(() => {}) } },
);
