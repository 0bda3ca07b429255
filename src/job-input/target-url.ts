/** A job's target as the API takes it: the website's URL, normalized and refused when private. */
import { Type } from 'typebox';
import { AddressRefusedError, assertHostResolvesAllowed, normalizeUrl, type GuardOptions } from '../crawl/index.ts';
import { errors } from '../errors.ts';

/** The website a job is about: any http(s) URL, kept in its normalized spelling. */
export const TargetUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'An http or https URL' });

export function parseTargetUrl(raw: string): string {
  const trimmed = raw.trim();
  const normalized = /^https?:\/\//i.test(trimmed) ? normalizeUrl(trimmed) : null;
  if (!normalized || !new URL(normalized).hostname) throw errors.validation('url must be a valid http or https URL');
  return normalized;
}

/** How long a start waits for the target's DNS answer before leaving the check to the crawler. */
const LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Refuses, before anything is charged or created, a target the crawler would refuse to connect
 * to: a private, loopback, link-local or otherwise reserved address, or a host resolving to one.
 */
export async function refuseUnreachableTarget(url: string, guard: GuardOptions): Promise<void> {
  try {
    await assertHostResolvesAllowed(new URL(url).hostname, guard, LOOKUP_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof AddressRefusedError) throw errors.privateTarget();
    throw error;
  }
}
