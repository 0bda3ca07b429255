import { Ajv, type Options } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { validationFailure } from './error-handler.ts';

// ajv-formats ships CommonJS with a default export that ESM sees one level down.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

function makeAjv(options: Options): Ajv {
  // strictNumbers: `strict: false` would let NaN and Infinity (`?offset=Infinity`, `1e309`) pass as numbers.
  const ajv = new Ajv({ allErrors: false, useDefaults: true, removeAdditional: false, strict: false, strictNumbers: true, ...options });
  addFormats(ajv);
  return ajv;
}

// Query strings and path parameters arrive as text, so numbers and booleans are coerced there;
// a JSON body must already carry the right types (`"maxUrls": "5"` is a validation error).
const coercing = makeAjv({ coerceTypes: 'array' });
const strict = makeAjv({ coerceTypes: false });

/**
 * The first value the database cannot take although the schema let it through: a string (or key)
 * holding U+0000, which PostgreSQL text cannot store; a number that is not finite, which ajv's
 * coercion makes of `?offset=Infinity` without checking it again; or one beyond the safe integers
 * (`?offset=1e20` overflows PostgreSQL's bigint).
 */
function findUnstorable(value: unknown, path: string): { path: string; message: string } | null {
  if (typeof value === 'string') return value.includes('\u0000') ? { path, message: 'must not contain NUL characters' } : null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { path, message: 'must be a finite number' };
    if (Math.abs(value) > Number.MAX_SAFE_INTEGER) return { path, message: `must be between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` };
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = key.includes('\u0000')
      ? { path: `${path}/${key}`, message: 'must not contain NUL characters' }
      : findUnstorable(item, `${path}/${key}`);
    if (found !== null) return found;
  }
  return null;
}

// Such values are refused here as bad input (400) on every route with a schema, instead of
// failing in the database as a 500.
export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? strict : coercing).compile(schema as object);
  const guarded = Object.assign(
    (data: unknown) => {
      const valid = validate(data);
      guarded.errors = validate.errors ?? null;
      const unstorable = valid ? findUnstorable(data, '') : null;
      if (unstorable === null) return valid;
      guarded.errors = [{ keyword: 'storable', instancePath: unstorable.path, schemaPath: '', params: {}, message: unstorable.message }];
      return false;
    },
    { errors: null as unknown[] | null },
  );
  return guarded as any;
};

/**
 * A checker of values that arrive outside a route's body (an MCP tool's arguments), compiled once:
 * the same defaults and the same `Validation error: …` (400) as a route with that body schema.
 */
export function bodyChecker<Schema extends TSchema>(schema: Schema): (data: unknown) => Static<Schema> {
  const validate = validatorCompiler({ schema, httpPart: 'body', method: 'POST', url: '' }) as ((data: unknown) => boolean) & { errors: any[] | null };
  return (data) => {
    const copy = structuredClone(data);
    if (!validate(copy)) throw validationFailure(validate.errors ?? [], 'body');
    return copy as Static<Schema>;
  };
}
