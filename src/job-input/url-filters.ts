/**
 * A job's URL filters as the API takes them (`includePaths`, `excludePaths` on a generation's
 * options and a discovery's body), checked as globs. crawl/path-filter.ts matches URLs with them.
 */
import { Type } from 'typebox';
import { invalidPathPattern, MAX_PATH_PATTERN_CHARS, MAX_PATH_PATTERNS, type PathFilters } from '../crawl/index.ts';
import { errors } from '../errors.ts';

const patternList = (what: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: MAX_PATH_PATTERN_CHARS }), {
    maxItems: MAX_PATH_PATTERNS,
    default: [],
    description: `Glob patterns on the URL path (${what}), read as .gitignore reads them: \`*\` within a segment, \`**\` across; a leading / anchors at the root; a pattern covers everything below it. Exclusions win.`,
  });

/** `includePaths` and `excludePaths`, as generation options and discovery fields. */
export const PathPatternFields = {
  includePaths: patternList('only these are listed; without any, the start URL’s folder is'),
  excludePaths: patternList('never fetched nor listed'),
};

/** The request's patterns, checked as globs: 400 `Validation error: …` naming the first bad one. */
export function parsePathFilters(input: PathFilters): PathFilters {
  const reason = invalidPathPattern('includePaths', input.includePaths) ?? invalidPathPattern('excludePaths', input.excludePaths);
  if (reason) throw errors.validation(reason);
  return { includePaths: input.includePaths, excludePaths: input.excludePaths };
}
