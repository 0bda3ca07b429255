import { Type } from 'typebox';
import { callerOf } from '../http/authenticate.ts';
import type { CredentialCache } from '../auth/credential-cache.ts';
import type { PaymentProvider } from '../billing/provider.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { messages } from '../errors.ts';
import { errorAnswers, SuccessMessage } from '../http/schemas.ts';
import { IsoDate, Nullable } from '../shapes.ts';
import type { App, RoutePlugin } from '../http/types.ts';
import { createAccount, deleteAccount, getAccount, updateProfile, type Account } from './accounts.ts';

const Name = (min: number, max: number) => Type.String({ minLength: min, maxLength: max, pattern: '\\S' });

const NewAccountBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    firstName: Name(1, 50),
    lastName: Type.Optional(Type.String({ maxLength: 50 })),
    company: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

const ProfileBody = Type.Object(
  {
    firstName: Type.Optional(Name(1, 50)),
    lastName: Type.Optional(Name(1, 50)),
    company: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

const AccountView = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Nullable(Type.String()),
  company: Nullable(Type.String()),
  plan: Type.String(),
  createdAt: IsoDate,
});

const ProfileView = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Nullable(Type.String()),
  company: Nullable(Type.String()),
  updatedAt: IsoDate,
});

const accountView = (a: Account) => ({
  id: a.id,
  email: a.email,
  firstName: a.firstName,
  lastName: a.lastName,
  company: a.company,
  plan: a.plan,
  createdAt: a.createdAt.toISOString(),
});

type Deps = { db: Database; config: Config; payments: PaymentProvider; credentials: CredentialCache };

export const accountRoutes: RoutePlugin<Deps> = async (app, deps) => {
  signUpRoute(app, deps);
  profileRoutes(app, deps.db);
  deleteRoute(app, deps);
};

function signUpRoute(app: App, { db, config }: Deps) {
  app.post(
    '/accounts',
    {
      config: { rateLimit: { max: config.rateLimits.publicPerIp, keyGenerator: (r) => r.ip } },
      schema: {
        tags: ['Accounts'],
        summary: 'Create an account and its first API key',
        body: NewAccountBody,
        response: {
          201: Type.Object({ success: Type.Boolean(), message: Type.String(), account: AccountView, apiKey: Type.String() }),
          ...errorAnswers(409),
        },
      },
    },
    async (request, reply) => {
      const { account, apiKey } = await createAccount(db, config.signupCredits, request.body);
      return reply.code(201).send({ success: true, message: messages.accountCreated, account: accountView(account), apiKey });
    },
  );

}

/** The calling account as it is, and its profile changed. */
function profileRoutes(app: App, db: Database) {
  app.get(
    '/accounts/me',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Accounts'],
        summary: 'The calling account, with its plan and credit balance',
        response: { 200: Type.Object({ account: Type.Intersect([AccountView, Type.Object({ creditBalance: Type.Integer() })]) }) },
      },
    },
    async (request) => {
      const account = await getAccount(db, callerOf(request).accountId);
      return { account: { ...accountView(account), creditBalance: account.creditBalance } };
    },
  );

  app.put(
    '/accounts/profile',
    {
      config: { auth: 'any' },
      schema: {
        tags: ['Accounts'],
        summary: 'Update the profile',
        body: ProfileBody,
        response: { 200: Type.Object({ success: Type.Boolean(), message: Type.String(), account: ProfileView }) },
      },
    },
    async (request) => {
      const account = await updateProfile(db, callerOf(request).accountId, request.body);
      return {
        success: true,
        message: messages.profileUpdated,
        account: {
          id: account.id,
          firstName: account.firstName,
          lastName: account.lastName,
          company: account.company,
          updatedAt: account.updatedAt.toISOString(),
        },
      };
    },
  );

}

function deleteRoute(app: App, { db, payments, credentials }: Deps) {
  app.delete(
    '/accounts',
    {
      config: { auth: 'apiKey', apiKeyOnlyError: 'apiKeyContextNotFound', missingHeaderError: 'apiKeyContextNotFound' },
      schema: {
        tags: ['Accounts'],
        summary: 'Delete the account and everything it owns (API key only)',
        description: 'Live subscriptions are canceled at the payment provider first; if it fails, nothing is deleted (502).',
        response: { 200: SuccessMessage, ...errorAnswers(502) },
      },
    },
    async (request) => {
      const { accountId } = callerOf(request);
      await deleteAccount(db, payments, accountId, request.log);
      credentials.forget({ accountId });
      return { success: true, message: messages.accountDeleted };
    },
  );
}
