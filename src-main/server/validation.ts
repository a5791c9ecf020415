import type { FastifySchemaValidationError } from 'fastify/types/schema';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { ProblemCode, ProblemFieldError } from '../../src-shared/api/errors';
import { ApiError } from './problems';

function paramName(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') return params.additionalProperty;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') return params.missingProperty;
  const path = error.instancePath.replace(/^\//, '').split('/')[0];
  return path === undefined || path === '' ? 'request' : path;
}

function describe(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return 'is not a parameter of this endpoint';
    case 'required':
      return 'is required';
    case 'pattern':
      return 'has the wrong format';
    case 'anyOf':
    case 'const':
    case 'enum':
      return 'is not one of the allowed values';
    case 'minimum':
      return `must be ≥ ${String(params.limit)}`;
    case 'maximum':
      return `must be ≤ ${String(params.limit)}`;
    case 'type':
      return `must be ${String(params.type)}${params.type === 'integer' || params.type === 'number' ? ' (one value)' : ''}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Maps Ajv errors to one problem: the first error decides the code; every named parameter is listed once. */
export function validationProblem(errors: readonly FastifySchemaValidationError[], context: string): ApiError {
  const seen = new Set<string>();
  const list: ProblemFieldError[] = [];
  let code: ProblemCode = 'INVALID_PARAMETER';
  errors.forEach((error, index) => {
    const param = paramName(error);
    // anyOf failures repeat once per branch; keep the first message per parameter.
    if (seen.has(param)) return;
    seen.add(param);
    list.push({ param, message: describe(error) });
    if (index === 0) {
      code = error.keyword === 'additionalProperties' ? 'UNKNOWN_PARAMETER' : error.keyword === 'required' ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER';
    }
  });
  const detail = list.map((e) => `${e.param} ${e.message}`).join('; ');
  return new ApiError(code, `Invalid ${context === 'querystring' ? 'query' : context}: ${detail}`, list);
}

/** Keys that pollute prototypes when a parsed body is merged or spread: refused at every depth. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Parses a JSON request body (uploads arrive as text, app.ts). A body naming `__proto__`, `constructor` or
 * `prototype` anywhere is refused before anything reads it.
 */
export function parseJsonBody(body: unknown): unknown {
  const text = typeof body === 'string' ? body : '';
  let forbidden: string | null = null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key: string, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) forbidden ??= key;
      return value;
    });
  } catch {
    throw new ApiError('INVALID_PARAMETER', 'The body must be a JSON object.', [{ param: 'body', message: 'is not JSON' }]);
  }
  if (forbidden !== null) throw new ApiError('INVALID_PARAMETER', `The body names the key "${forbidden}", which is not allowed at any depth.`, [{ param: forbidden, message: 'is not allowed' }]);
  return parsed;
}

/**
 * Fastify validator compiler for JSON bodies: TypeBox, without the type coercion Ajv applies to query strings
 * (a JSON body states its types: "0.05" is not a number). Nested fields are named with dots.
 */
export function strictBodyCompiler({ schema }: { schema: unknown }): (data: unknown) => { value: unknown } | { error: ApiError } {
  const check = Compile(schema as TSchema);
  return (data) => {
    if (check.Check(data)) return { value: data };
    const seen = new Set<string>();
    const list: ProblemFieldError[] = [];
    let unknown = false;
    for (const error of check.Errors(data)) {
      // An unknown property is reported twice (the property's `false` schema and the parent's list): keep the list.
      if (error.keyword === 'boolean') continue;
      const extra = (error.params as { additionalProperties?: string[] }).additionalProperties;
      if (extra !== undefined) unknown = true;
      const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const param = extra?.[0] === undefined ? path || 'body' : path === '' ? extra[0] : `${path}.${extra[0]}`;
      if (seen.has(param) || list.length >= 20) continue;
      seen.add(param);
      list.push({ param, message: extra === undefined ? error.message : 'is not a known field' });
    }
    return { error: new ApiError(unknown ? 'UNKNOWN_PARAMETER' : 'INVALID_PARAMETER', `Invalid body: ${list.map((e) => `${e.param} ${e.message}`).join('; ')}`, list) };
  };
}
