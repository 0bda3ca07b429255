import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errors } from '../errors.ts';
import type { App } from './types.ts';

/** One readable reason from ajv's first complaint: `maxUrls must be <= 1000`, `email is required`. */
function describeValidationFailure(error: FastifyError): string {
  const first = error.validation![0];
  const part = error.validationContext ?? 'body';
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'required') {
    const missing = [field, params.missingProperty].filter(Boolean).join('.');
    return `${missing} is required`;
  }
  if (first.keyword === 'additionalProperties') {
    return `unknown property ${[field, params.additionalProperty].filter(Boolean).join('.')} in ${part}`;
  }
  const allowed = allowedValues(error.validation!, first.instancePath);
  if (allowed.length > 0) return `${field || part} must be one of ${allowed.join(', ')}`;
  return `${field || part} ${first.message ?? 'is invalid'}`;
}

/**
 * The values a field accepts, when its schema is a list of them (an enum, or a union of literals,
 * for which ajv reports one "must be equal to constant" per literal): the caller sees them all.
 */
function allowedValues(failures: NonNullable<FastifyError['validation']>, instancePath: string): string[] {
  const values: unknown[] = [];
  for (const failure of failures) {
    if (failure.instancePath !== instancePath) continue;
    const params = failure.params as Record<string, unknown>;
    if (failure.keyword === 'const') values.push(params.allowedValue);
    if (failure.keyword === 'enum') values.push(...(params.allowedValues as unknown[]));
  }
  return values.map((value) => String(value));
}

/** The 400 of a value a schema refused, for values checked outside a route (an MCP tool's arguments). */
export function validationFailure(failures: NonNullable<FastifyError['validation']>, context: string): ApiError {
  return errors.validation(describeValidationFailure(Object.assign(new Error(), { validation: failures, validationContext: context }) as FastifyError));
}

function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return errors.validation(describeValidationFailure(error));
  const status = error.statusCode ?? 500;
  if (status === 413) return errors.payloadTooLarge();
  if (status === 415) return errors.unsupportedMediaType();
  if (status === 429) return new ApiError(429, error.message);
  // Fastify's own 400s: malformed JSON, empty JSON body, bad content-length and the like.
  if (status >= 400 && status < 500) return errors.validation(error.message);
  return errors.internal();
}

/**
 * Errors Fastify answers before any route or hook runs (a badly %-encoded path, a path parameter over
 * the router's length cap): the same `{message}` shape, and a 400 like any other bad input.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const apiError =
    error.code === 'FST_ERR_BAD_URL'
      ? errors.validation('the path is not a valid URL component')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? errors.validation('a path parameter is too long')
        : errors.internal();
  reply.code(apiError.statusCode).send({ message: apiError.message });
}

/** Turns every error into `{message}` with its status; only real faults are 5xx, and they are logged. */
export function registerErrorHandling(app: App): void {
  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    reply.code(apiError.statusCode).headers(apiError.headers);
    return reply.send({ ...apiError.extra, message: apiError.message });
  });
  app.setNotFoundHandler((request, reply) => {
    const apiError = errors.routeNotFound(request.method, request.url.split('?')[0]);
    return reply.code(404).send({ message: apiError.message });
  });
}
