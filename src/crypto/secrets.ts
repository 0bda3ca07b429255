import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random bytes written in base62, so a secret is safe in URLs, headers and shells alike. */
export function randomBase62(bytes: number): string {
  let value = BigInt('0x' + randomBytes(bytes).toString('hex'));
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(Math.ceil((bytes * 8) / Math.log2(62)), '0');
}

/**
 * Secrets are stored only as this hash; a leaked table gives nothing to log in with. Every API-key
 * request hashes its key, so it uses the one-shot `hash`, cheaper than building a Hash object.
 */
export function sha256(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/**
 * A secret the service must read back (a webhook's signing secret), sealed with AES-256-GCM under
 * a key derived from the service's own secret: a leaked table alone gives nothing to sign with.
 */
export function sealSecret(secret: string, serviceSecret: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serviceSecret, purpose), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

export function openSecret(sealed: string, serviceSecret: string, purpose: string): string {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(serviceSecret, purpose), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

function sealingKey(serviceSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serviceSecret, 'llmstxt', purpose, 32));
}
