/**
 * Who a bearer token stands for: an API key, or a session's access token. Handed to the HTTP
 * layer's authentication (http/authenticate.ts), which asks it and knows nothing of keys or
 * sessions itself.
 */
import { eq } from '../db/orm.ts';
import { authenticateApiKey, looksLikeApiKey } from '../api-keys/api-keys.ts';
import type { Clock } from '../clock.ts';
import { sha256 } from '../crypto/secrets.ts';
import type { Database } from '../db/database.ts';
import { accounts } from '../db/schema.ts';
import type { Caller, IdentifyCaller } from '../http/types.ts';
import type { CredentialCache } from './credential-cache.ts';
import { verifyAccessToken } from './tokens.ts';

interface IdentifyDeps {
  db: Database;
  clock: Clock;
  jwtSecret: string;
  credentials: CredentialCache;
}

/**
 * The account a token stands for, null when none. What the database said is remembered briefly
 * (see CredentialCache), and a remembered API key is answered at once; an access token's
 * signature and expiry are checked on every request.
 */
export function callerIdentifier(deps: IdentifyDeps): IdentifyCaller {
  return (token) => {
    if (!looksLikeApiKey(token)) return identifyAccessToken(deps, token);
    return deps.credentials.resolve(`key:${sha256(token)}`, () => identifyApiKey(deps, token));
  };
}

async function identifyApiKey(deps: IdentifyDeps, token: string): Promise<Caller | null> {
  const found = await authenticateApiKey(deps.db, deps.clock, token);
  return found ? { accountId: found.accountId, via: 'apiKey', apiKeyId: found.apiKeyId } : null;
}

async function identifyAccessToken(deps: IdentifyDeps, token: string): Promise<Caller | null> {
  const accountId = await verifyAccessToken(deps, token);
  if (!accountId) return null;
  return deps.credentials.resolve(`account:${accountId}`, async () => {
    // A token outlives a deleted account by up to 15 minutes; it must not act for it.
    const [account] = await deps.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId));
    return account ? { accountId, via: 'jwt', apiKeyId: null } : null;
  });
}
