/**
 * Schemas of the HTTP layer shared by many routes: error and success answers. The shapes logic
 * and routes share (ids, dates, paging) are src/shapes.ts's; each capability keeps its own next to
 * its routes.
 */
import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object({ message: Type.String() }, { $id: 'ErrorBody', additionalProperties: true });

export const SuccessMessage = Type.Object({ success: Type.Boolean(), message: Type.String() });

/** For an answer serialized ahead of time (a replayed or remembered one), sent as it is. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type SuccessMessage = Static<typeof SuccessMessage>;

const errorMeanings = {
  400: 'Bad input: `Validation error: …` or a refused request',
  401: 'Missing, invalid or expired credentials',
  402: 'Not enough credits',
  403: 'The resource belongs to another account, or the plan does not allow it',
  404: 'No such resource',
  409: 'Conflicts with the current state',
  422: 'Unprocessable',
  429: 'Too many requests; retry after the `Retry-After` header',
  502: 'The payment provider is unavailable; nothing was charged or written',
  503: 'The database is unreachable',
} as const;

export type ErrorStatus = keyof typeof errorMeanings;

/** The error answers a route documents, each an ErrorBody: `...errorAnswers(404, 409)`. */
export function errorAnswers(...statuses: ErrorStatus[]): Partial<Record<ErrorStatus, ReturnType<typeof Type.Ref>>> {
  return Object.fromEntries(statuses.map((status) => [status, Type.Ref('ErrorBody', { description: errorMeanings[status] })]));
}

/**
 * The contract gives some routes twice, with one schema and one handler: for session callers
 * (JWT only) and, at `…/api`, for third parties (API key only). Register both in a loop:
 * `for (const { url, auth, summary } of sessionAndKeyRoutes('/x', '/x/api', 'Does x'))`.
 */
export function sessionAndKeyRoutes<S extends string, K extends string>(sessionPath: S, keyPath: K, summary: string) {
  return [
    { url: sessionPath, auth: 'jwt', summary },
    { url: keyPath, auth: 'apiKey', summary: `${summary} (API key)` },
  ] as const;
}
