import { Type } from 'typebox';
import type { CredentialCache } from '../auth/credential-cache.ts';
import type { Database } from '../db/database.ts';
import { messages } from '../errors.ts';
import { callerOf } from '../http/authenticate.ts';
import { errorAnswers, SuccessMessage } from '../http/schemas.ts';
import { Id, IsoDate, Nullable } from '../shapes.ts';
import type { RoutePlugin } from '../http/types.ts';
import { createApiKey, listApiKeys, MAX_API_KEYS_PER_ACCOUNT, revokeApiKey, type ApiKeySummary } from './api-keys.ts';

const ApiKeyView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  createdAt: IsoDate,
  lastUsedAt: Nullable(IsoDate),
});

const view = (k: ApiKeySummary) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
});

export const apiKeyRoutes: RoutePlugin<{ db: Database; credentials: CredentialCache }> = async (app, { db, credentials }) => {
  app.get(
    '/api-keys',
    {
      config: { auth: 'any' },
      schema: { tags: ['API keys'], summary: "List the account's API keys", response: { 200: Type.Object({ apiKeys: Type.Array(ApiKeyView) }) } },
    },
    async (request) => ({ apiKeys: (await listApiKeys(db, callerOf(request).accountId)).map(view) }),
  );

  app.post(
    '/api-keys',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['API keys'],
        summary: `Create an API key (at most ${MAX_API_KEYS_PER_ACCOUNT} per account); the key is shown once`,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }) }, { additionalProperties: false }),
        response: { 201: Type.Object({ success: Type.Boolean(), message: Type.String(), apiKey: ApiKeyView, key: Type.String() }), ...errorAnswers(409) },
      },
    },
    async (request, reply) => {
      const created = await createApiKey(db, callerOf(request).accountId, request.body.name);
      return reply.code(201).send({ success: true, message: messages.apiKeyCreated, apiKey: view(created), key: created.key });
    },
  );

  app.delete(
    '/api-keys/:id',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['API keys'],
        summary: 'Revoke an API key (not the last one)',
        params: Type.Object({ id: Id }),
        response: { 200: SuccessMessage, ...errorAnswers(404, 409) },
      },
    },
    async (request) => {
      await revokeApiKey(db, callerOf(request).accountId, request.params.id);
      // This process refuses the key on its very next request; the others when the notice arrives.
      credentials.forget({ apiKeyId: request.params.id });
      return { success: true, message: messages.apiKeyRevoked };
    },
  );
};
