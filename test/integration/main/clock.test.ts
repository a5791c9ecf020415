/**
 * "Now" comes from the context's clock (issue 12): the services and the server never read the system time, so a
 * test sets it. Each figure below follows the clock, not the day the test runs.
 */
import { describe, expect, it } from 'vitest';
import type { ImportsResponseT, PerformanceResponseT, SummaryResponseT } from '../../../src-shared/api/schemas';
import { manualClock } from '../../clock';
import { useTestApp } from '../../helper';

const clock = manualClock('2031-06-15T12:00:00Z');
const app = useTestApp({ clock });

describe('the clock of the context', () => {
  it('/v1/health tells the time of the clock', async () => {
    // Set here, not only at the start: shuffled, it ran after the tests that move the clock on.
    clock.set('2031-06-15T12:00:00Z');
    expect((await app.get<{ time: string }>('/v1/health')).body.time).toBe('2031-06-15T12:00:00.000Z');
  });

  it('the journal defaults to today in its zone: 03:30 UTC on Tuesday July 1 is Monday June 30 in New York', async () => {
    clock.set('2031-07-01T03:30:00Z');
    const performance = (await app.get<PerformanceResponseT>('/v1/journal/performance')).body;
    expect(performance.monthly, 'the month of June 30').toMatchObject({ from: '2031-06-01', to: '2031-06-30' });
    expect(performance.weekly, 'the week from Monday June 30').toMatchObject({ from: '2031-06-30', to: '2031-07-06' });
    clock.set('2031-12-31T23:30:00Z');
    expect((await app.get<SummaryResponseT>('/v1/journal/summary')).body.year, '18:30 on New Year’s Eve in New York').toBe(2031);
    clock.set('2032-01-01T05:30:00Z');
    expect((await app.get<SummaryResponseT>('/v1/journal/summary')).body.year).toBe(2032);
  });

  it('an import is dated by the clock (the journal worker receives the caller’s now)', async () => {
    clock.set('2032-02-03T04:05:06.007Z');
    const csv = 'date,account,type,symbol,quantity,price,commission,fees,amount,currency\n2032-01-05,IRA,DIVIDEND,PFE,0,0,0,0,12.50,USD\n';
    const imported = await app.request({ method: 'POST', url: '/v1/imports?broker=generic', headers: { 'content-type': 'text/csv' }, payload: csv });
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json<{ createdAt: string }>().createdAt).toBe('2032-02-03T04:05:06.007Z');
    expect((await app.get<ImportsResponseT>('/v1/imports')).body.imports[0]?.createdAt).toBe('2032-02-03T04:05:06.007Z');
  });

  it('a new key is stamped with the clock', () => {
    clock.set('2033-03-03T03:03:03.000Z');
    const { id } = app.ctx.keys.create('clocked');
    expect(app.ctx.keys.list().find((key) => key.id === id)?.createdAt).toBe('2033-03-03T03:03:03.000Z');
  });
});
