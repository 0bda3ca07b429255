/**
 * Hosted files as they are sent: one copy of a version's bytes in this process however many
 * downloads of it are under way, and each compressed form made once per version, not once per
 * request. A version is named by its ETag, a hash of its content.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { Database } from '../db/database.ts';
import { SharedLoads } from '../db/shared-loads.ts';
import { errors } from '../errors.ts';
import { readSiteFileBytes, siteFileVersion, type SiteFileKind } from './site-files.ts';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** Ours first on a tie: brotli makes the smaller file. */
const SERVED_ENCODINGS: ContentEncoding[] = ['br', 'gzip', 'identity'];

/** Brotli's middle quality: the top ones are many times slower for a few percent less. */
const BROTLI_QUALITY = 5;

const [gzipAsync, brotliAsync] = [promisify(gzip), promisify(brotliCompress)];

const compress: Record<Exclude<ContentEncoding, 'identity'>, (bytes: Buffer) => Promise<Buffer>> = {
  gzip: (bytes) => gzipAsync(bytes),
  br: (bytes) =>
    brotliAsync(bytes, {
      params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }),
};

/** The encoding to send for an `Accept-Encoding` header: identity when it accepts none of ours (or is absent). */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding {
  return negotiate(acceptEncoding ?? '', SERVED_ENCODINGS) ?? 'identity';
}

/** Each encoding of a version is a representation of its own, with an ETag of its own. */
export function representationEtag(etag: string, encoding: ContentEncoding): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

/** If-None-Match by weak comparison (RFC 9110 13.1.2): `*`, or one of its tags, with or without `W/`. */
export function matchesIfNoneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Versions' bytes in each encoding, as sent lately and being sent. The latest stay in memory up
 * to a byte budget, least recently sent out first; one pushed out while downloads still send it is
 * found again through them until the last one ends, so it is never loaded or compressed twice at
 * once. A compressed form is made from the identity bytes, by the first request that wants it.
 */
export class ServedFiles {
  private readonly loads = new SharedLoads<Buffer | null>();
  private readonly recent = new Map<string, Buffer>();
  private readonly inUse = new Map<string, WeakRef<Buffer>>();
  private readonly forgetCollected = new FinalizationRegistry<string>((key) => {
    if (this.inUse.get(key)?.deref() === undefined) this.inUse.delete(key);
  });
  private readonly maxKeptBytes: number;
  private keptBytes = 0;

  constructor(maxKeptBytes: number) {
    this.maxKeptBytes = maxKeptBytes;
  }

  /** Version `etag` in `encoding`; `load` reads its identity bytes (null: that version is no longer stored). */
  async get(etag: string, encoding: ContentEncoding, load: () => Promise<Buffer | null>): Promise<Buffer | null> {
    const key = `${encoding} ${etag}`;
    const bytes =
      this.recent.get(key) ??
      this.inUse.get(key)?.deref() ??
      (await this.loads.load(key, async () => {
        const made = encoding === 'identity' ? await load() : await this.get(etag, 'identity', load).then((identity) => identity && compress[encoding](identity));
        if (made) {
          this.inUse.set(key, new WeakRef(made));
          this.forgetCollected.register(made, key);
        }
        return made;
      }));
    if (bytes) this.keep(key, bytes);
    return bytes;
  }

  private keep(key: string, bytes: Buffer): void {
    const known = this.recent.get(key);
    if (known) {
      this.recent.delete(key);
      this.keptBytes -= known.length;
    }
    this.recent.set(key, bytes);
    this.keptBytes += bytes.length;
    for (const [oldest, each] of this.recent) {
      if (this.keptBytes <= this.maxKeptBytes || oldest === key) break;
      this.recent.delete(oldest);
      this.keptBytes -= each.length;
    }
  }
}

export interface SiteFileAnswer {
  etag: string;
  updatedAt: Date;
  encoding: ContentEncoding;
  /** null when the caller already has this representation (304) */
  body: Buffer | null;
}

/** `body`'s version `etag` in the encoding the caller accepts best, or nothing (304) when the caller has it. */
export async function answerText(
  files: ServedFiles,
  version: { etag: string; updatedAt: Date },
  load: () => Promise<Buffer | null>,
  request: { acceptEncoding?: string; ifNoneMatch?: string },
): Promise<SiteFileAnswer | null> {
  const encoding = negotiateEncoding(request.acceptEncoding);
  const etag = representationEtag(version.etag, encoding);
  if (matchesIfNoneMatch(request.ifNoneMatch, etag)) return { etag, updatedAt: version.updatedAt, encoding, body: null };
  const body = await files.get(version.etag, encoding, load);
  return body && { etag, updatedAt: version.updatedAt, encoding, body };
}

/**
 * A hosted file in the encoding the caller accepts best; a 304 reads no part. A version replaced
 * between reading its ETag and its parts is read again, as the one now stored.
 */
export async function answerSiteFile(
  db: Database,
  files: ServedFiles,
  siteId: string,
  kind: SiteFileKind,
  request: { acceptEncoding?: string; ifNoneMatch?: string },
): Promise<SiteFileAnswer> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const version = await siteFileVersion(db, siteId, kind);
    const answer = await answerText(files, version, () => readSiteFileBytes(db, siteId, kind, version.etag), request);
    if (answer) return answer;
  }
  throw errors.fileNotFound();
}
