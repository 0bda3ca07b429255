/**
 * TypeBox building blocks for the shapes the service's logic and its API share: a shape is one
 * schema, in the layer that owns it, and its type is `Static<typeof Schema>`. Nothing here is
 * HTTP: routes add their error answers and twin paths from http/schemas.ts.
 */
import { Type, type TLiteral, type TSchema, type TUnion } from 'typebox';

/** An ISO 8601 date-time in the answer; handlers may hand over a Date, which the serializer writes so. */
export const IsoDate = Type.Unsafe<string | Date>(Type.String({ format: 'date-time' }));

export const Id = Type.String({ minLength: 1, maxLength: 100 });

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
