/**
 * The bounds of a research export lie in the years of every date parameter, 1900–2200 (issue 29, finding 6:
 * `POST /v1/exports` took `from: 9999-12-31` and started an export). A date is checked on its year; an instant on
 * its year once its offset is applied. A real loopback server; a refused request starts no export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { tempDir } from '../../../../paths';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
});
afterAll(async () => {
  await server?.close();
});

async function post(body: unknown): Promise<{ status: number; body: { code?: string; detail?: string; errors?: Array<{ param: string; message: string }> } }> {
  const response = await fetch(`${server.apiBaseUrl}/exports`, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as { code?: string } };
}

async function exportsStarted(): Promise<number> {
  const response = await fetch(`${server.apiBaseUrl}/exports`, { headers: { authorization: `Bearer ${server.apiKey}` } });
  return ((await response.json()) as { exports: unknown[] }).exports.length;
}

describe('POST /v1/exports: from and to within 1900–2200', () => {
  it('from 9999-12-31, to 0001-01-01, from 1899-12-31, to 2201-01-01: 400 naming the bound and the year; no export starts', async () => {
    for (const [body, param, year] of [
      [{ from: '9999-12-31' }, 'from', '9999'],
      [{ to: '0001-01-01' }, 'to', '0001'],
      [{ from: '1899-12-31', to: '2024-01-01' }, 'from', '1899'],
      [{ from: '2024-01-01', to: '2201-01-01' }, 'to', '2201'],
    ] as const) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('INVALID_PARAMETER');
      expect(answer.body.errors?.[0]?.param).toBe(param);
      expect(answer.body.errors?.[0]?.message).toMatch(new RegExp(`${year}.*1900–2200`));
    }
    expect(await exportsStarted()).toBe(0);
  });

  it('an instant whose offset carries it out of the range (2200-12-31T23:00-14:00 is 2201-01-01T13:00Z): 400', async () => {
    const late = await post({ to: '2200-12-31T23:00:00-14:00' });
    expect(late.status).toBe(400);
    expect(late.body.errors?.[0]?.param).toBe('to');
    const early = await post({ from: '1900-01-01T00:00:00+14:00' });
    expect(early.status).toBe(400);
    expect(early.body.errors?.[0]?.param).toBe('from');
    expect(await exportsStarted()).toBe(0);
  });

  it('the edges are exports: from 1900-01-01 to 2200-12-31', async () => {
    const answer = await post({ from: '1900-01-01', to: '2200-12-31' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  });
});
