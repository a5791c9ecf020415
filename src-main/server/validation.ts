import type { FastifySchemaValidationError } from 'fastify/types/schema';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import type { ProblemCode, ProblemFieldError } from '../../src-shared/api/errors';
import { DATE_PATTERN, DATE_TEXT_PATTERNS, DATE_YEARS, DATETIME_PATTERN, DECIMAL_TEXT, EXPIRATIONS_PATTERN, INTEGER_TEXT, SYMBOL_PATTERN, yearOutOfRange } from '../../src-shared/api/schema-kit';
import { DATE_OR_INSTANT_PATTERN } from '../../src-shared/api/manual-schemas';
import { ApiError } from './problems';

function paramName(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') return params.additionalProperty;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') return params.missingProperty;
  const path = error.instancePath.replace(/^\//, '').split('/')[0];
  return path === undefined || path === '' ? 'request' : path;
}

/** The formats a pattern stands for, in words: "has the wrong format" left the user guessing which (issue 18). */
const FORMATS: ReadonlyMap<string, string> = new Map([
  [DATE_PATTERN, 'must be a date written YYYY-MM-DD (e.g. 2024-01-05)'],
  [DATETIME_PATTERN, 'must be a date written YYYY-MM-DD or an ISO 8601 date-time (e.g. 2024-01-05T16:00, 2024-01-05T21:00:00Z)'],
  [EXPIRATIONS_PATTERN, 'must be dates written YYYY-MM-DD, separated by commas (at most 200)'],
  [SYMBOL_PATTERN, 'must be a ticker: a letter or digit, then up to 15 letters, digits or . _ / ^ -'],
  [DATE_OR_INSTANT_PATTERN, 'must be a date written YYYY-MM-DD or an ISO 8601 instant with an offset (e.g. 2024-01-05T16:00-05:00)'],
  ['^[A-Z]{3}$', 'must be a three-letter currency code in capitals (e.g. USD)'],
  // onlineSource.baseUrl (SettingsSchema); the rest of its rules, with their reasons: setting-rules.ts.
  ['^(https?://|$)', 'must start with https:// or http:// (or be empty: no online source)'],
]);

/** What a parameter whose text breaks `pattern` must look like. */
export function formatWanted(pattern: unknown): string {
  if (typeof pattern !== 'string') return 'has the wrong format';
  const known = FORMATS.get(pattern);
  if (known !== undefined) return known;
  return `has the wrong format (it must match ${pattern})`;
}

function describe(error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return 'is not a parameter of this endpoint';
    case 'required':
      return 'is required';
    case 'pattern':
      return formatWanted(params.pattern);
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

/** What the grammar reads of a parameter's schema (TypeBox's JSON schema). */
interface ParameterSchema {
  type?: unknown;
  pattern?: unknown;
}

/** Why a parameter's text breaks the grammar of its schema, or null. */
function grammarProblem(schema: ParameterSchema, text: string): string | null {
  if (schema.type === 'integer' || schema.type === 'number') {
    const grammar = schema.type === 'integer' ? INTEGER_TEXT : DECIMAL_TEXT;
    if (!grammar.test(text)) return schema.type === 'integer' ? 'must be a whole number written with the digits 0-9 only' : 'must be a decimal number written as digits, an optional minus and an optional .fraction';
    // Digits beyond any float ("1" and 400 zeros) would become Infinity, which slips through Ajv's `maximum`.
    if (!Number.isFinite(Number(text))) return 'is too large';
    return null;
  }
  if (typeof schema.pattern === 'string' && DATE_TEXT_PATTERNS.includes(schema.pattern)) {
    const year = yearOutOfRange(text);
    if (year !== null) return `names the year ${String(year).padStart(4, '0')}, outside ${DATE_YEARS.min}–${DATE_YEARS.max}`;
  }
  return null;
}

/**
 * The grammar of query and path parameters (docs/conventions.md §HTTP API), checked on the decoded text the route
 * receives, before the schema coerces it: integers are digits (`0x10`, `1e1`, `+5`, ` 5`, `5.0` are refused, where
 * JavaScript's Number() would read them), decimals digits with an optional minus and fraction, and dates and instants
 * lie in the years 1900–2200. Every parameter that breaks it is listed; a repeated parameter (an array) is left to
 * the schema, which refuses it.
 */
export function grammarError(values: unknown, schema: unknown, context: 'query' | 'path'): ApiError | null {
  if (typeof values !== 'object' || values === null || typeof schema !== 'object' || schema === null) return null;
  const properties = (schema as { properties?: Record<string, ParameterSchema> }).properties;
  if (properties === undefined) return null;
  const list: ProblemFieldError[] = [];
  for (const [name, value] of Object.entries(values)) {
    const property = Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : undefined;
    if (property === undefined || typeof value !== 'string') continue;
    const problem = grammarProblem(property, value);
    if (problem !== null) list.push({ param: name, message: problem });
  }
  if (list.length === 0) return null;
  const shown = (name: string) => {
    const value = (values as Record<string, unknown>)[name];
    return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : '';
  };
  return new ApiError('INVALID_PARAMETER', `Invalid ${context}: ${list.map((e) => `${e.param} ${shown(e.param)} ${e.message}`).join('; ')}`, list);
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
export function strictBodyCompiler({ schema, httpPart }: { schema: unknown; httpPart?: string }): (data: unknown) => { value: unknown } | { error: ApiError } {
  const check = Compile(schema as TSchema);
  // A path's integer (an id) arrives as text, its grammar already checked (the preValidation hook): read as a number.
  const numeric = httpPart === 'params' ? numericProperties(schema) : [];
  return (raw) => {
    const data = numeric.length > 0 && typeof raw === 'object' && raw !== null ? withNumbers(raw as Record<string, unknown>, numeric) : raw;
    if (check.Check(data)) return { value: data };
    const seen = new Set<string>();
    const list: ProblemFieldError[] = [];
    let unknown = false;
    const add = (param: string, message: string) => {
      if (seen.has(param) || list.length >= 20) return;
      seen.add(param);
      list.push({ param, message });
    };
    for (const error of check.Errors(data)) {
      const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
      // An unknown property is reported twice: by its own `false` schema, then in its parent's list. Both name it: TypeBox
      // stops at 8 errors, so with 8 unknown properties the list never comes (and the body was refused naming nothing).
      const extra = error.keyword === 'boolean' ? [path] : (error.params as { additionalProperties?: string[] }).additionalProperties?.map((name) => (path === '' ? name : `${path}.${name}`));
      if (extra !== undefined) {
        unknown = true;
        for (const param of extra) add(param || 'body', 'is not a known field');
        continue;
      }
      add(path || 'body', error.keyword === 'pattern' ? formatWanted((error.params as { pattern?: unknown }).pattern) : error.message);
    }
    return { error: new ApiError(unknown ? 'UNKNOWN_PARAMETER' : 'INVALID_PARAMETER', `Invalid body: ${list.map((e) => `${e.param} ${e.message}`).join('; ')}`, list) };
  };
}

/** The properties of an object schema typed integer or number. */
function numericProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer' || property.type === 'number')
    .map(([name]) => name);
}

/** A copy with the named properties' decimal text read as numbers. */
function withNumbers(data: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...data };
  for (const name of names) {
    const value = copy[name];
    if (typeof value === 'string' && DECIMAL_TEXT.test(value)) copy[name] = Number(value);
  }
  return copy;
}
