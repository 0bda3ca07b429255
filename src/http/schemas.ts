/** Schemas shared by many routes. Each capability keeps its own next to its routes. */
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from 'typebox';

export const ErrorBody = Type.Object({ message: Type.String() }, { $id: 'ErrorBody', additionalProperties: true });

export const SuccessMessage = Type.Object({ success: Type.Boolean(), message: Type.String() });

/** An ISO 8601 date-time in the answer; handlers may hand over a Date, which the serializer writes so. */
export const IsoDate = Type.Unsafe<string | Date>(Type.String({ format: 'date-time' }));

/** For an answer serialized ahead of time (a replayed or remembered one), sent as it is. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export const Id = Type.String({ minLength: 1, maxLength: 100 });

export type SuccessMessage = Static<typeof SuccessMessage>;

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a fixed set of strings (an enum in the OpenAPI document), typed as that set. */
export const OneOf = <const V extends readonly string[]>(
  values: V,
  options: { default?: V[number]; description?: string } = {},
): TUnion<{ -readonly [K in keyof V]: TLiteral<V[K]> }> => Type.Union(values.map((v) => Type.Literal(v)), options) as never;

/** How many pages a generation lists or a discovery finds (the contract's bounds and default). */
export const MaxUrls = Type.Integer({ minimum: 1, maximum: 1000, default: 50 });

/** Which page of a listing a query asks for (pages count from 1), `defaultLimit` rows unless told. */
export const PageQuery = (defaultLimit: number) => ({
  page: Type.Integer({ minimum: 1, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: defaultLimit }),
});

/** Where a page of a listing stands, beside its rows in the answer. */
export const PageFields = { total: Type.Integer(), page: Type.Integer(), totalPages: Type.Integer() };

/** Keywords that only check or fill in input; an answer's shape has none of them. */
const INPUT_ONLY = new Set(['minimum', 'maximum', 'minLength', 'maxLength', 'maxItems', 'default', 'description']);

/**
 * An input schema's shape as an answer shows it: the same fields and types, without the bounds,
 * defaults and descriptions that check or fill in input, and a choice of strings as a string. So
 * one schema says what a thing is, for the request that sets it and the answer that shows it.
 */
export function answerShape<T extends TSchema>(schema: T): T {
  return shapeOf(schema) as T;
}

function shapeOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shapeOf);
  if (node === null || typeof node !== 'object') return node;
  const choices = (node as { anyOf?: Array<{ const?: unknown }> }).anyOf;
  if (choices?.every((choice) => typeof choice.const === 'string')) return Type.String();
  // Property descriptors keep TypeBox's own (non-enumerable) marks on each schema.
  const descriptors = Object.getOwnPropertyDescriptors(node);
  for (const [key, descriptor] of Object.entries(descriptors)) {
    if (INPUT_ONLY.has(key)) delete descriptors[key];
    else if (key === 'properties') descriptor.value = Object.fromEntries(Object.entries(descriptor.value).map(([name, field]) => [name, shapeOf(field)]));
    else if ('value' in descriptor) descriptor.value = shapeOf(descriptor.value);
  }
  return Object.defineProperties({}, descriptors);
}

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
