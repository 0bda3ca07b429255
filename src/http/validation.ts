import { Ajv, type Options } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS with a default export that ESM sees one level down.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: false, useDefaults: true, removeAdditional: false, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

// Query strings and path parameters arrive as text, so numbers and booleans are coerced there;
// a JSON body must already carry the right types (`"maxUrls": "5"` is a validation error).
const coercing = makeAjv({ coerceTypes: 'array' });
const strict = makeAjv({ coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? strict : coercing).compile(schema as object) as any;
