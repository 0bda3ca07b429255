/** Schemas shared by many routes. Each capability keeps its own next to its routes. */
import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object({ message: Type.String() }, { $id: 'ErrorBody', additionalProperties: true });

export const SuccessMessage = Type.Object({ success: Type.Boolean(), message: Type.String() });

export const IsoDate = Type.String({ format: 'date-time' });

export const Id = Type.String({ minLength: 1, maxLength: 100 });

export const errorResponses = {
  400: Type.Ref('ErrorBody'),
  401: Type.Ref('ErrorBody'),
  403: Type.Ref('ErrorBody'),
  404: Type.Ref('ErrorBody'),
  409: Type.Ref('ErrorBody'),
  429: Type.Ref('ErrorBody'),
};

export type SuccessMessage = Static<typeof SuccessMessage>;

export const Nullable = <T extends import('typebox').TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** One of a fixed set of strings (an enum in the OpenAPI document). */
export const OneOf = (values: readonly string[], options: { default?: string; description?: string } = {}) =>
  Type.Union(values.map((v) => Type.Literal(v)), options);
