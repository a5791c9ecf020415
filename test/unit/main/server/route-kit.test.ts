/**
 * The request rules of the route kit, one by one (issue 31 item 5: the mutation run over the route rules found them
 * reached only through HTTP suites it cannot afford, and every mutant of them uncovered). Each case is a query a
 * client can send, with the problem it must get — or none — written out by hand.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../../../src-main/server/problems';
import { bothEnds, calendarDates, dateOrDateTime, datesInOrder, numbersInOrder, oneOf, queryRules } from '../../../../src-main/server/route-kit';

/** The problem a rule answers, as the client reads it (code, detail, the parameters named), or null. */
function seen(problem: ApiError | null) {
  return problem === null ? null : { code: problem.problem.code, detail: problem.problem.detail, params: problem.problem.errors?.map((e) => [e.param, e.message]) };
}

describe('bothEnds: a custom range needs both of its ends', () => {
  const rule = bothEnds('from', 'to');
  it('neither end, or both: no problem', () => {
    expect(rule({})).toBeNull();
    expect(rule({ from: '2024-01-01', to: '2024-12-31' })).toBeNull();
  });
  it('only from: RANGE_INCOMPLETE naming to as missing, required with from', () => {
    expect(seen(rule({ from: '2024-01-01' }))).toEqual({ code: 'RANGE_INCOMPLETE', detail: 'A custom range needs both from and to; to is missing.', params: [['to', 'is required with from']] });
  });
  it('only to: RANGE_INCOMPLETE naming from as missing, required with to', () => {
    expect(seen(rule({ to: '2024-12-31' }))).toEqual({ code: 'RANGE_INCOMPLETE', detail: 'A custom range needs both from and to; from is missing.', params: [['from', 'is required with to']] });
  });
});

describe('calendarDates: YYYY-MM-DD that is a day of the calendar', () => {
  const rule = calendarDates('from', 'to');
  it('real days pass, a leap day in a leap year included; absent parameters pass', () => {
    expect(rule({ from: '2024-02-29', to: '2024-12-31' })).toBeNull();
    expect(rule({})).toBeNull();
  });
  it('30 February is refused, naming the parameter and its value', () => {
    expect(seen(rule({ from: '2024-02-30' }))).toEqual({ code: 'INVALID_PARAMETER', detail: 'from: 2024-02-30 is not a calendar date', params: [['from', 'is not a calendar date']] });
  });
  it('every named parameter is checked, not only the first: a bad `to` after a good `from`', () => {
    expect(seen(rule({ from: '2024-01-01', to: '2023-02-29' }))?.params, '2023 is no leap year').toEqual([['to', 'is not a calendar date']]);
  });
  it('a number where a date is expected is left to the schema (the rule reads text only)', () => {
    expect(rule({ from: 20240230 })).toBeNull();
  });
});

describe('dateOrDateTime: a calendar date, or an ISO 8601 date-time', () => {
  const rule = dateOrDateTime('date');
  it('a calendar date, a date-time with an offset, in UTC, and without a zone (New York wall time) pass', () => {
    for (const date of ['2024-03-15', '2024-03-15T10:30:00-04:00', '2024-03-15T14:30:00Z', '2024-03-15T10:30']) expect(rule({ date }), date).toBeNull();
    expect(rule({})).toBeNull();
  });
  it('a date shaped YYYY-MM-DD is held to the calendar: 2023-02-29 is not a calendar date', () => {
    expect(seen(rule({ date: '2023-02-29' }))).toEqual({ code: 'INVALID_PARAMETER', detail: 'date: 2023-02-29 is not a calendar date', params: [['date', 'is not a calendar date']] });
  });
  it('text that is neither is refused as a date-time, naming the value', () => {
    expect(seen(rule({ date: 'yesterday' }))).toEqual({ code: 'INVALID_PARAMETER', detail: 'date: yesterday is not a valid ISO 8601 date-time', params: [['date', 'is not a valid ISO 8601 date-time']] });
  });
  it('a date with text around it is not a calendar date read loosely: 2024-03-15x is refused', () => {
    expect(seen(rule({ date: '2024-03-15x' }))?.code).toBe('INVALID_PARAMETER');
    expect(seen(rule({ date: 'x2024-03-15' }))?.code).toBe('INVALID_PARAMETER');
  });
});

describe('datesInOrder: from is not after to', () => {
  const rule = datesInOrder('from', 'to');
  it('from before to, the same day, or an end missing: no problem', () => {
    expect(rule({ from: '2024-01-01', to: '2024-01-02' })).toBeNull();
    expect(rule({ from: '2024-01-01', to: '2024-01-01' }), 'a one-day range').toBeNull();
    expect(rule({ from: '2024-01-01' })).toBeNull();
    expect(rule({ to: '2024-01-01' })).toBeNull();
  });
  it('from after to: refused on from, with both values', () => {
    expect(seen(rule({ from: '2024-01-02', to: '2024-01-01' }))).toEqual({ code: 'INVALID_PARAMETER', detail: 'from (2024-01-02) is after to (2024-01-01).', params: [['from', 'must not be after to']] });
  });
});

describe('numbersInOrder: min is not greater than max', () => {
  const rule = numbersInOrder('minDte', 'maxDte');
  it('min below max, equal, or one missing: no problem', () => {
    expect(rule({ minDte: 0, maxDte: 45 })).toBeNull();
    expect(rule({ minDte: 7, maxDte: 7 }), 'a one-day window').toBeNull();
    expect(rule({ minDte: 7 })).toBeNull();
    expect(rule({ maxDte: 7 })).toBeNull();
  });
  it('min above max: refused on min, with both values', () => {
    expect(seen(rule({ minDte: 30, maxDte: 7 }))).toEqual({ code: 'INVALID_PARAMETER', detail: 'minDte (30) is greater than maxDte (7).', params: [['minDte', 'must not exceed maxDte']] });
  });
  it('0 is a number like any other: min 1 above max 0 is refused', () => {
    expect(seen(rule({ minDte: 1, maxDte: 0 }))?.code).toBe('INVALID_PARAMETER');
  });
});

describe('oneOf: parameters that exclude one another', () => {
  const rule = oneOf('snapshot', 'at', 'expirations');
  it('one of them, or none: no problem', () => {
    expect(rule({ snapshot: 3 })).toBeNull();
    expect(rule({ at: '2024-01-05T21:00:00Z' })).toBeNull();
    expect(rule({})).toBeNull();
  });
  it('the first with another: refused naming both, each said to exclude the other', () => {
    expect(seen(rule({ snapshot: 3, expirations: '2024-01-19' }))).toEqual({
      code: 'INVALID_PARAMETER',
      detail: 'snapshot and expirations cannot be given together: give one of them.',
      params: [
        ['expirations', 'cannot be given with snapshot'],
        ['snapshot', 'cannot be given with expirations'],
      ],
    });
  });
  it('the others together without the first are not this rule’s business', () => {
    expect(rule({ at: '2024-01-05T21:00:00Z', expirations: '2024-01-19' })).toBeNull();
  });
});

describe('queryRules: the first rule the query breaks answers', () => {
  const handler = queryRules(bothEnds('from', 'to'), datesInOrder('from', 'to'));
  const request = (query: unknown) => ({ query }) as FastifyRequest;
  it('a query that keeps every rule goes through', async () => {
    await expect(handler(request({ from: '2024-01-01', to: '2024-01-02' }))).resolves.toBeUndefined();
    await expect(handler(request(undefined)), 'no query at all').resolves.toBeUndefined();
  });
  it('a broken rule throws its problem, the first one in order', async () => {
    await expect(handler(request({ from: '2024-01-02' }))).rejects.toMatchObject({ problem: { code: 'RANGE_INCOMPLETE' } });
    await expect(handler(request({ from: '2024-01-02', to: '2024-01-01' }))).rejects.toMatchObject({ problem: { code: 'INVALID_PARAMETER', detail: 'from (2024-01-02) is after to (2024-01-01).' } });
  });
});
