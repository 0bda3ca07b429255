import { Type } from 'typebox';
import { normalizeUrl } from '../crawl/index.ts';
import { errors } from '../errors.ts';

/** The website a job is about: any http(s) URL, kept in its normalized spelling. */
export const TargetUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'An http or https URL' });

export function parseTargetUrl(raw: string): string {
  const trimmed = raw.trim();
  const normalized = /^https?:\/\//i.test(trimmed) ? normalizeUrl(trimmed) : null;
  if (!normalized || !new URL(normalized).hostname) throw errors.validation('url must be a valid http or https URL');
  return normalized;
}
