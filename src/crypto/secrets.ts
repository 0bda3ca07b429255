import { createHash, randomBytes } from 'node:crypto';

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

/** Secrets are stored only as this hash; a leaked table gives nothing to log in with. */
export function sha256(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
