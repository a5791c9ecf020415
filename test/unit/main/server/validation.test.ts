/**
 * The grammar checks of the route kit, one case each (issue 31 item 5: reached before only through the HTTP grammar
 * and fuzz suites, which a mutation run cannot afford per mutant). Every expected message is written out by hand.
 */
import type { FastifySchemaValidationError } from 'fastify/types/schema';
import { describe, expect, it } from 'vitest';
import { DATE_PATTERN } from '../../../../src-shared/api/schema-kit';
import type { ApiError } from '../../../../src-main/server/problems';
import { Type } from 'typebox';
import { formatWanted, grammarError, parseJsonBody, strictBodyCompiler, validationProblem } from '../../../../src-main/server/validation';

const SCHEMA = { properties: { limit: { type: 'integer' }, strike: { type: 'number' }, from: { type: 'string', pattern: DATE_PATTERN }, note: { type: 'string' } } };

function params(problem: ApiError | null) {
  return problem?.problem.errors?.map((e) => [e.param, e.message]) ?? null;
}

describe('grammarError: integers are digits, decimals digits with a minus and a fraction, dates in 1900–2200', () => {
  it('text that keeps the grammar passes: 25, -12.5, 0, a date of 2024, free text where the schema asks for none', () => {
    expect(grammarError({ limit: '25', strike: '-12.5', from: '2024-01-05', note: '0x10 anything' }, SCHEMA, 'query')).toBeNull();
    expect(grammarError({ limit: '0', strike: '7' }, SCHEMA, 'query')).toBeNull();
  });
  it('what Number() would read but a person would not write as an integer is refused: 0x10, 1e1, +5, " 5", 5.0', () => {
    for (const limit of ['0x10', '1e1', '+5', ' 5', '5.0', '']) expect(params(grammarError({ limit }, SCHEMA, 'query')), JSON.stringify(limit)).toEqual([['limit', 'must be a whole number written with the digits 0-9 only']]);
  });
  it('a decimal with a plus, an exponent, a bare fraction or spaces is refused', () => {
    for (const strike of ['+1', '1e3', '.5', '1.', ' 1']) expect(params(grammarError({ strike }, SCHEMA, 'query')), strike).toEqual([['strike', 'must be a decimal number written as digits, an optional minus and an optional .fraction']]);
  });
  it('digits past any float are too large (they would read as Infinity and slip past a maximum)', () => {
    expect(params(grammarError({ limit: `1${'0'.repeat(400)}` }, SCHEMA, 'query'))).toEqual([['limit', 'is too large']]);
    expect(params(grammarError({ strike: `-1${'0'.repeat(400)}` }, SCHEMA, 'query'))).toEqual([['strike', 'is too large']]);
  });
  it('a date outside 1900–2200 names its year; the ends of the range pass', () => {
    expect(params(grammarError({ from: '1899-12-31' }, SCHEMA, 'query'))).toEqual([['from', 'names the year 1899, outside 1900–2200']]);
    expect(params(grammarError({ from: '2201-01-01' }, SCHEMA, 'query'))).toEqual([['from', 'names the year 2201, outside 1900–2200']]);
    expect(grammarError({ from: '1900-01-01' }, SCHEMA, 'query')).toBeNull();
    expect(grammarError({ from: '2200-12-31' }, SCHEMA, 'query')).toBeNull();
  });
  it('every broken parameter is listed, and the detail quotes each value (cut at 40 characters) in the context named', () => {
    const problem = grammarError({ limit: '1e1', from: '0999-01-01', strike: '2' }, SCHEMA, 'path');
    expect(problem?.problem.code).toBe('INVALID_PARAMETER');
    expect(params(problem)).toEqual([
      ['limit', 'must be a whole number written with the digits 0-9 only'],
      ['from', 'names the year 0999, outside 1900–2200'],
    ]);
    expect(problem?.problem.detail).toBe('Invalid path: limit "1e1" must be a whole number written with the digits 0-9 only; from "0999-01-01" names the year 0999, outside 1900–2200');
    expect(grammarError({ limit: 'x'.repeat(100) }, SCHEMA, 'query')?.problem.detail).toBe(`Invalid query: limit "${'x'.repeat(40)}" must be a whole number written with the digits 0-9 only`);
  });
  it('what it cannot judge is left to the schema: a repeated parameter (an array), an unknown one, a schema without properties', () => {
    expect(grammarError({ limit: ['1', 'x'] }, SCHEMA, 'query')).toBeNull();
    expect(grammarError({ unknown: 'x' }, SCHEMA, 'query')).toBeNull();
    expect(grammarError({ toString: 'x' }, SCHEMA, 'query'), 'a name of Object.prototype is no parameter').toBeNull();
    expect(grammarError({ limit: 'x' }, {}, 'query')).toBeNull();
    expect(grammarError(null, SCHEMA, 'query')).toBeNull();
    expect(grammarError({ limit: 'x' }, null, 'query')).toBeNull();
  });
});

describe('formatWanted: a pattern said in words', () => {
  it('a known pattern says what to write; an unknown one shows the pattern; no pattern says only that it is wrong', () => {
    expect(formatWanted(DATE_PATTERN)).toBe('must be a date written YYYY-MM-DD (e.g. 2024-01-05)');
    expect(formatWanted('^[A-Z]{3}$')).toBe('must be a three-letter currency code in capitals (e.g. USD)');
    expect(formatWanted('^x+$')).toBe('has the wrong format (it must match ^x+$)');
    expect(formatWanted(undefined)).toBe('has the wrong format');
  });
});

describe('validationProblem: schema errors as one problem', () => {
  const error = (keyword: string, instancePath: string, errorParams: Record<string, unknown>, message?: string): FastifySchemaValidationError =>
    ({ keyword, instancePath, schemaPath: '', params: errorParams, message }) as FastifySchemaValidationError;
  it('the first error decides the code: an unknown parameter, a missing one, else an invalid one', () => {
    expect(validationProblem([error('additionalProperties', '', { additionalProperty: 'foo' })], 'querystring').problem).toMatchObject({
      code: 'UNKNOWN_PARAMETER',
      detail: 'Invalid query: foo is not a parameter of this endpoint',
    });
    expect(validationProblem([error('required', '', { missingProperty: 'symbol' }), error('additionalProperties', '', { additionalProperty: 'foo' })], 'querystring').problem).toMatchObject({
      code: 'MISSING_PARAMETER',
      detail: 'Invalid query: symbol is required; foo is not a parameter of this endpoint',
    });
    expect(validationProblem([error('minimum', '/limit', { limit: 1 }), error('required', '', { missingProperty: 'symbol' })], 'params').problem.code).toBe('INVALID_PARAMETER');
  });
  it('each keyword in words, each parameter once (anyOf repeats per branch)', () => {
    const problem = validationProblem(
      [
        error('maximum', '/limit', { limit: 500 }),
        error('minimum', '/page', { limit: 1 }),
        error('type', '/count', { type: 'integer' }),
        error('type', '/name', { type: 'string' }),
        error('enum', '/status', {}),
        error('anyOf', '/status', {}),
        error('pattern', '/from', { pattern: DATE_PATTERN }),
        error('format', '', {}, 'must be something else'),
      ],
      'body',
    );
    expect(params(problem)).toEqual([
      ['limit', 'must be ≤ 500'],
      ['page', 'must be ≥ 1'],
      ['count', 'must be integer (one value)'],
      ['name', 'must be string'],
      ['status', 'is not one of the allowed values'],
      ['from', 'must be a date written YYYY-MM-DD (e.g. 2024-01-05)'],
      ['request', 'must be something else'],
    ]);
    expect(problem.problem.detail.startsWith('Invalid body: limit must be ≤ 500; page must be ≥ 1;')).toBe(true);
  });
});

describe('parseJsonBody: JSON, and no key that pollutes prototypes', () => {
  it('a JSON body is parsed as it is', () => {
    expect(parseJsonBody('{"transactions":[{"quantity":1}]}')).toEqual({ transactions: [{ quantity: 1 }] });
  });
  it('text that is not JSON, or no text at all, is refused as not JSON', () => {
    for (const body of ['{', '', undefined, 42]) expect(() => parseJsonBody(body)).toThrow('The body must be a JSON object.');
  });
  it('__proto__, constructor or prototype at any depth is refused, naming the first', () => {
    expect(() => parseJsonBody('{"a":{"b":[{"constructor":1}]},"prototype":2}')).toThrow('The body names the key "constructor", which is not allowed at any depth.');
    expect(() => parseJsonBody('{"__proto__":{"admin":true}}')).toThrow('"__proto__"');
  });
});

describe('strictBodyCompiler: a JSON body checked as it states its types, each broken field named by its dotted path', () => {
  const BODY = Type.Object(
    {
      day: Type.String({ pattern: DATE_PATTERN }),
      qty: Type.Integer(),
      leg: Type.Optional(Type.Object({ strike: Type.Number(), note: Type.String() }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  );
  const check = strictBodyCompiler({ schema: BODY });
  /** The code and the (param, message) pairs of a refusal. */
  const outcome = (data: unknown): { code: string; errors: string[][] | undefined } => {
    const result = check(data);
    if (!('error' in result)) throw new Error('the body passed');
    return { code: result.error.problem.code, errors: result.error.problem.errors?.map((e) => [e.param, e.message]) };
  };

  it('a body that keeps the schema passes as it is', () => {
    const body = { day: '2024-01-05', qty: 3, leg: { strike: 95.5, note: 'x' } };
    expect(check(body), 'the same object').toEqual({ value: body });
    expect((check(body) as { value: unknown }).value, 'not a copy').toBe(body);
  });

  it('an unknown field, at the top or nested, is UNKNOWN_PARAMETER named by its path, once', () => {
    expect(outcome({ day: '2024-01-05', qty: 3, extra: 1 })).toEqual({ code: 'UNKNOWN_PARAMETER', errors: [['extra', 'is not a known field']] });
    expect(outcome({ day: '2024-01-05', qty: 3, leg: { strike: 1, note: 'x', side: 'short' } })).toEqual({ code: 'UNKNOWN_PARAMETER', errors: [['leg.side', 'is not a known field']] });
  });

  it('a field of the wrong type or format is INVALID_PARAMETER named by its dotted path; a pattern said in words', () => {
    const typed = outcome({ day: '2024-01-05', qty: '3', leg: { strike: '95.5', note: 'x' } });
    expect(typed.code, 'a JSON body states its types: "3" is no integer').toBe('INVALID_PARAMETER');
    expect(typed.errors?.map(([param]) => param), 'each field once, by its path').toEqual(['qty', 'leg.strike']);
    expect(outcome({ day: '05/01/2024', qty: 3 })).toEqual({ code: 'INVALID_PARAMETER', errors: [['day', 'must be a date written YYYY-MM-DD (e.g. 2024-01-05)']] });
    const missing = outcome({ qty: 3 });
    expect(missing.code, 'a missing field').toBe('INVALID_PARAMETER');
    expect(missing.errors?.[0]?.[0], 'no path below the body: the body').toBe('body');
  });

  it('a body that is not an object is named as the body', () => {
    const result = outcome(null);
    expect(result.code).toBe('INVALID_PARAMETER');
    expect(result.errors?.map(([param]) => param)).toEqual(['body']);
  });

  it('an unknown field beside a wrong one makes the whole problem UNKNOWN_PARAMETER, listing both', () => {
    const result = outcome({ day: '2024-01-05', qty: 1.5, extra: true });
    expect(result.code).toBe('UNKNOWN_PARAMETER');
    expect(result.errors?.map(([param]) => param).sort()).toEqual(['extra', 'qty']);
  });

  it('a body with many unknown fields is UNKNOWN_PARAMETER and names them (TypeBox stops at 8 errors: with 8 unknown fields it named none)', () => {
    // TypeBox reports the first 8 errors, here one per unknown property; the parent's list of them came after and was cut.
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, i]));
    const result = check({ day: '2024-01-05', qty: 3, ...many });
    if (!('error' in result)) throw new Error('refused');
    const { code, detail, errors = [] } = result.error.problem;
    expect(code).toBe('UNKNOWN_PARAMETER');
    expect(errors.length, 'some fields named, at most 20').toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(20);
    expect(errors[0], 'the first unknown field first').toEqual({ param: 'f0', message: 'is not a known field' });
    expect(errors.every((e) => /^f\d+$/.test(e.param) && e.message === 'is not a known field'), 'each an unknown field').toBe(true);
    expect(detail, 'the detail names them').toMatch(/^Invalid body: f0 is not a known field; f1 is not a known field/);
  });

  it('every unknown field of a body is named, not only the first', () => {
    expect(outcome({ day: '2024-01-05', qty: 3, extra: 1, more: 2 })).toEqual({ code: 'UNKNOWN_PARAMETER', errors: [['extra', 'is not a known field'], ['more', 'is not a known field']] });
  });

  it('a path\'s numeric parameters arrive as text and are read as numbers (their grammar was checked before); a body\'s are not', () => {
    const PATH = Type.Object({ id: Type.Integer({ minimum: 1 }), ratio: Type.Number(), name: Type.String() });
    const path = strictBodyCompiler({ schema: PATH, httpPart: 'params' });
    const raw = { id: '12', ratio: '-0.5', name: '7' };
    expect(path(raw), 'id and ratio read as numbers; a string stays text').toEqual({ value: { id: 12, ratio: -0.5, name: '7' } });
    expect(raw.id, 'the params object itself is not changed').toBe('12');
    expect('error' in path({ id: '0x10', ratio: '1', name: 'a' }), 'text that is no decimal stays text and fails the integer').toBe(true);
    expect('error' in path({ id: '0', ratio: '1', name: 'a' }), 'read as 0, below the minimum').toBe(true);
    expect('error' in strictBodyCompiler({ schema: PATH, httpPart: 'body' })(raw), 'a body: "12" is no integer').toBe(true);
    expect('error' in strictBodyCompiler({ schema: PATH })(raw), 'no part said: a body').toBe(true);
    expect(path(null), 'no params object at all: the schema refuses it').toHaveProperty('error');
  });
});

