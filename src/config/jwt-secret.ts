import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Env } from './env-values.ts';

/**
 * Secrets that are public knowledge: placeholders from examples and documentation. A production
 * JWT_SECRET must also use at least 16 distinct characters (a repeated or keyboard-walk string
 * of the right length is no secret).
 */
const PLACEHOLDER_SECRETS = ['changeme', 'change-me', 'change_me', 'secret', 'your-secret', 'your_secret', 'jwt-secret', 'replace-me', 'test-secret-that-is-long-enough-for-hs256'];

function isWeakSecret(secret: string): boolean {
  const lowered = secret.toLowerCase();
  return new Set(secret).size < 16 || PLACEHOLDER_SECRETS.some((placeholder) => lowered.includes(placeholder));
}

/**
 * Without JWT_SECRET a random secret is made once and kept in the data folder, so tokens
 * survive restarts on a laptop; production must set it explicitly.
 */
export function jwtSecret(env: Env, dataDir: string, production: boolean): string {
  const given = env.JWT_SECRET;
  if (given) {
    if (given.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters');
    if (production && isWeakSecret(given)) {
      throw new ConfigError('JWT_SECRET is a known placeholder or too simple (fewer than 16 distinct characters): make one with `openssl rand -base64 48`');
    }
    return given;
  }
  if (production) throw new ConfigError('JWT_SECRET is required when NODE_ENV=production');
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
