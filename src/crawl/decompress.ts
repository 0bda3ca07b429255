// Content-Encoding and gzipped files, always with a cap on the output: a few hundred
// kilobytes of gzip can expand to gigabytes (a "gzip bomb").
import zlib from 'node:zlib';
import { promisify } from 'node:util';

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

export class DecompressedTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`Decompressed content exceeds ${formatBytes(maxBytes)}`);
    this.maxBytes = maxBytes;
    this.name = 'DecompressedTooLargeError';
  }
}

export class UnsupportedEncodingError extends Error {
  readonly encoding: string;
  constructor(encoding: string) {
    super(`Unsupported Content-Encoding: ${encoding}`);
    this.encoding = encoding;
    this.name = 'UnsupportedEncodingError';
  }
}

export function isGzip(body: Uint8Array): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

/** Undoes a Content-Encoding header's codings (applied in order, so undone last first). */
export async function decodeContentEncoding(body: Buffer, header: string | null | undefined, maxBytes: number): Promise<Buffer> {
  if (!header) return body;
  const codings = header.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c && c !== 'identity');
  let out = body;
  for (let i = codings.length - 1; i >= 0; i--) out = await decodeOne(out, codings[i], maxBytes);
  return out;
}

async function decodeOne(body: Buffer, coding: string, maxBytes: number): Promise<Buffer> {
  if (body.length === 0) return body;
  const options = { maxOutputLength: Math.max(1, maxBytes) };
  try {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return await gunzip(body, options);
      case 'deflate':
        // "deflate" is meant to be zlib-wrapped, but some servers send a raw stream.
        return looksZlibWrapped(body) ? await inflate(body, options) : await inflateRaw(body, options);
      case 'br':
        return await brotli(body, options);
      default:
        throw new UnsupportedEncodingError(coding);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new DecompressedTooLargeError(maxBytes);
    throw err;
  }
}

/** Gunzips a file served as gzip without Content-Encoding (sitemap.xml.gz). */
export async function gunzipCapped(body: Buffer, maxBytes: number): Promise<Buffer> {
  return decodeOne(body, 'gzip', maxBytes);
}

function looksZlibWrapped(body: Buffer): boolean {
  return body.length >= 2 && (body[0] & 0x0f) === 8 && ((body[0] << 8) | body[1]) % 31 === 0;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}
