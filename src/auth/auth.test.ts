import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { eq, inArray } from '../db/orm.ts';
import { refreshTokens } from '../db/schema.ts';
import { describeOnEachDatabase } from '../testing/service.ts';

const SECOND = 1000;
const DAY = 24 * 3600 * SECOND;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const decodeJwtPart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describeOnEachDatabase('Session tokens', (service) => {
  const refresh = (refreshToken: unknown) => service().request('POST', '/api/v1/auth/refresh', { body: { refreshToken } });
  const balanceWith = (token: string) => service().request('GET', '/api/v1/credits/balance', { token });
  const tokenRowsOf = (accountId: string) => service().db.select().from(refreshTokens).where(eq(refreshTokens.accountId, accountId));

  describe('POST /auth/login', () => {
    test('exchanges an API key for a token set: a 15-minute HS256 access token and an opaque refresh token', async () => {
      const { id, apiKey } = await service().createAccount();
      const res = await service().request('POST', '/api/v1/auth/login', { token: apiKey });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['message', 'success', 'tokens']);
      assert.equal(res.body.success, true);
      assert.equal(typeof res.body.message, 'string');

      const { tokens } = res.body;
      assert.deepEqual(Object.keys(tokens).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'tokenType']);
      assert.equal(tokens.expiresIn, 900);
      assert.equal(tokens.tokenType, 'Bearer');
      const [header, payload, signature] = tokens.accessToken.split('.');
      assert.ok(signature, 'the access token is a signed JWT');
      assert.equal(decodeJwtPart(header).alg, 'HS256');
      const claims = decodeJwtPart(payload);
      assert.equal(claims.sub, id);
      assert.equal(claims.exp - claims.iat, 900);
      assert.equal(typeof claims.jti, 'string');
      assert.match(tokens.refreshToken, /^[0-9A-Za-z]{40,}$/);
      assert.ok(!tokens.refreshToken.includes('.'), 'the refresh token is opaque, not a JWT');

      const balance = await balanceWith(tokens.accessToken);
      assert.equal(balance.status, 200);
    });

    test('refuses an access token presented to login with 401 Unauthorized', async () => {
      const { apiKey } = await service().createAccount();
      const { accessToken } = await service().login(apiKey);
      const res = await service().request('POST', '/api/v1/auth/login', { token: accessToken });
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { message: 'Unauthorized' });
    });

    test('refuses an unknown, malformed or missing API key with 401 Unauthorized', async () => {
      for (const token of ['llmstxt_0000000000000000000000000000000000000000000', 'not-a-key', undefined]) {
        const res = await service().request('POST', '/api/v1/auth/login', { token });
        assert.equal(res.status, 401, String(token));
        assert.deepEqual(res.body, { message: 'Unauthorized' });
      }
      const basic = await service().request('POST', '/api/v1/auth/login', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
      assert.equal(basic.status, 401);
      assert.deepEqual(basic.body, { message: 'Unauthorized' });
    });
  });

  describe('POST /auth/refresh', () => {
    test('rotates: answers a new token set and spends the refresh token it was given', async () => {
      const { id, apiKey } = await service().createAccount();
      const first = await service().login(apiKey);
      const res = await refresh(first.refreshToken);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.success, true);
      assert.equal(typeof res.body.message, 'string');
      assert.deepEqual(Object.keys(res.body.tokens).sort(), ['accessToken', 'expiresIn', 'refreshToken', 'tokenType']);
      assert.equal(res.body.tokens.expiresIn, 900);
      assert.equal(res.body.tokens.tokenType, 'Bearer');
      assert.notEqual(res.body.tokens.refreshToken, first.refreshToken);
      assert.equal((await balanceWith(res.body.tokens.accessToken)).status, 200);

      const rows = await tokenRowsOf(id);
      const spent = rows.find((r) => r.tokenHash === sha256(first.refreshToken));
      const fresh = rows.find((r) => r.tokenHash === sha256(res.body.tokens.refreshToken));
      assert.ok(spent?.usedAt, 'the presented token is marked used');
      assert.ok(fresh && !fresh.usedAt && !fresh.revokedAt);
      assert.equal(fresh.familyId, spent.familyId, 'the new token continues the same family');
    });

    test('refuses a refresh token that was already used with "Refresh token has been revoked", and revokes its family', async () => {
      const { id, apiKey } = await service().createAccount();
      const stolen = await service().login(apiKey);
      const otherSession = await service().login(apiKey);
      const rotated = await refresh(stolen.refreshToken);
      assert.equal(rotated.status, 200);

      const reuse = await refresh(stolen.refreshToken);
      assert.equal(reuse.status, 401);
      assert.deepEqual(reuse.body, { message: 'Refresh token has been revoked' });

      const successor = await refresh(rotated.body.tokens.refreshToken);
      assert.equal(successor.status, 401, 'the token issued from the reused one is revoked too');
      assert.deepEqual(successor.body, { message: 'Refresh token has been revoked' });

      const rows = await tokenRowsOf(id);
      const familyId = rows.find((r) => r.tokenHash === sha256(stolen.refreshToken))!.familyId;
      const family = rows.filter((r) => r.familyId === familyId);
      assert.equal(family.length, 2);
      assert.ok(family.every((r) => r.revokedAt), 'every token of the family is revoked');

      const other = await refresh(otherSession.refreshToken);
      assert.equal(other.status, 200, 'another login of the same account is a family of its own and unaffected');
    });

    test('answers 401 "Invalid or expired refresh token" for a token it never issued', async () => {
      const { apiKey } = await service().createAccount();
      const { accessToken } = await service().login(apiKey);
      for (const token of ['nope', '0'.repeat(43), accessToken, apiKey]) {
        const res = await refresh(token);
        assert.equal(res.status, 401, token);
        assert.deepEqual(res.body, { message: 'Invalid or expired refresh token' });
      }
    });

    test('answers 400 "Validation error: …" for a missing or malformed body', async () => {
      const cases: Array<[string, Parameters<ReturnType<typeof service>['request']>[2], string | RegExp]> = [
        ['no body', {}, 'Validation error: body must be object'],
        ['an empty object', { body: {} }, 'Validation error: refreshToken is required'],
        ['a number', { body: { refreshToken: 42 } }, 'Validation error: refreshToken must be string'],
        ['null', { body: { refreshToken: null } }, 'Validation error: refreshToken must be string'],
        ['an empty string', { body: { refreshToken: '' } }, /^Validation error: refreshToken .+/],
        ['an unknown field', { body: { refreshToken: 'x', extra: 1 } }, 'Validation error: unknown property extra in body'],
        ['a JSON array', { body: ['x'] }, 'Validation error: body must be object'],
        ['malformed JSON', { rawBody: '{"refreshToken":', headers: { 'content-type': 'application/json' } }, /^Validation error: .+/],
      ];
      for (const [name, options, message] of cases) {
        const res = await service().request('POST', '/api/v1/auth/refresh', options);
        assert.equal(res.status, 400, name);
        assert.deepEqual(Object.keys(res.body), ['message'], name);
        if (typeof message === 'string') assert.equal(res.body.message, message, name);
        else assert.match(res.body.message, message, name);
      }
    });

    test('stores refresh tokens only as SHA-256 hashes', async () => {
      const { id, apiKey } = await service().createAccount();
      const { refreshToken } = await service().login(apiKey);
      const rows = await tokenRowsOf(id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].tokenHash, sha256(refreshToken));
      assert.ok(!JSON.stringify(rows).includes(refreshToken), 'the plain token appears in no column');
    });

    test('lets at most one of ten simultaneous uses of one refresh token succeed', async () => {
      const { apiKey } = await service().createAccount();
      const { refreshToken } = await service().login(apiKey);
      const results = await Promise.all(Array.from({ length: 10 }, () => refresh(refreshToken)));
      const successes = results.filter((r) => r.status === 200);
      assert.ok(successes.length <= 1, `${successes.length} uses succeeded`);
      for (const r of results.filter((x) => x.status !== 200)) {
        assert.equal(r.status, 401);
        assert.deepEqual(r.body, { message: 'Refresh token has been revoked' });
      }
      const again = await refresh(refreshToken);
      assert.equal(again.status, 401);
    });
  });

  describe('token lifetimes', () => {
    test('accepts an access token for 899 seconds and refuses it with 401 Unauthorized from 900 seconds on', async () => {
      const { apiKey } = await service().createAccount();
      const { accessToken } = await service().login(apiKey);
      service().clock.advance(899 * SECOND);
      assert.equal((await balanceWith(accessToken)).status, 200);
      service().clock.advance(1 * SECOND);
      const expired = await balanceWith(accessToken);
      assert.equal(expired.status, 401);
      assert.deepEqual(expired.body, { message: 'Unauthorized' });
    });

    test('accepts a refresh token just before 7 days and answers "Invalid or expired refresh token" after', async () => {
      const { apiKey } = await service().createAccount();
      const { refreshToken } = await service().login(apiKey);
      service().clock.advance(7 * DAY - SECOND);
      const stillValid = await refresh(refreshToken);
      assert.equal(stillValid.status, 200, stillValid.text);

      service().clock.advance(7 * DAY);
      const expired = await refresh(stillValid.body.tokens.refreshToken);
      assert.equal(expired.status, 401);
      assert.deepEqual(expired.body, { message: 'Invalid or expired refresh token' });
    });
  });

  describe('POST /auth/logout', () => {
    test('answers 401 "Authorization header required" without an Authorization header', async () => {
      const res = await service().request('POST', '/api/v1/auth/logout');
      assert.equal(res.status, 401);
      assert.deepEqual(res.body, { message: 'Authorization header required' });
    });

    test('refuses an API key or an invalid token with 401 Unauthorized and revokes nothing', async () => {
      const { id, apiKey } = await service().createAccount();
      const { refreshToken } = await service().login(apiKey);
      for (const token of [apiKey, 'not.a.jwt', 'garbage']) {
        const res = await service().request('POST', '/api/v1/auth/logout', { token });
        assert.equal(res.status, 401, token);
        assert.deepEqual(res.body, { message: 'Unauthorized' });
      }
      assert.ok((await tokenRowsOf(id)).every((r) => !r.revokedAt));
      assert.equal((await refresh(refreshToken)).status, 200);
    });

    test("revokes every refresh token of the user, and only the user's, while the access token lives until it expires", async () => {
      const { id, apiKey } = await service().createAccount();
      const bystander = await service().createAccount();
      const bystanderSession = await service().login(bystander.apiKey);
      const laptop = await service().login(apiKey);
      const phone = await service().login(apiKey);
      const rotated = await refresh(phone.refreshToken);
      assert.equal(rotated.status, 200);

      const res = await service().request('POST', '/api/v1/auth/logout', { token: laptop.accessToken });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['message', 'success']);
      assert.equal(res.body.success, true);
      assert.equal(typeof res.body.message, 'string');

      const rows = await tokenRowsOf(id);
      assert.equal(rows.length, 3);
      assert.ok(rows.every((r) => r.revokedAt), 'every refresh token of the account is revoked');
      const bystanderRows = await service().db.select().from(refreshTokens).where(inArray(refreshTokens.accountId, [bystander.id]));
      assert.ok(bystanderRows.every((r) => !r.revokedAt), "another account's tokens are untouched");

      for (const token of [laptop.refreshToken, rotated.body.tokens.refreshToken]) {
        const after = await refresh(token);
        assert.equal(after.status, 401);
        assert.deepEqual(after.body, { message: 'Refresh token has been revoked' });
      }
      assert.equal((await refresh(bystanderSession.refreshToken)).status, 200);

      assert.equal((await balanceWith(laptop.accessToken)).status, 200, 'the access token still works after logout');
      service().clock.advance(900 * SECOND);
      assert.equal((await balanceWith(laptop.accessToken)).status, 401, 'until it expires');
    });
  });
});
