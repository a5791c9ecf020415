import type { FastifySchemaValidationError } from 'fastify/types/schema';
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
