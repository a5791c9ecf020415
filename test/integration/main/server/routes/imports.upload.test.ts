/**
 * Uploads to `POST /v1/imports` are read chunk by chunk into one buffer and handed to the journal worker as bytes
 * (routes/imports.ts): with or without Content-Length, with characters split between chunks, and bounded at 50 MB.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { tempDir } from '../../../../paths';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null, overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 } } });
});
afterAll(async () => {
  await server?.close();
});

/** POSTs `chunks` one write each, chunked (no Content-Length) unless `contentLength` is given. */
function upload(chunks: Buffer[], contentLength?: number): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.apiBaseUrl}/imports?broker=generic`,
      { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'text/csv', ...(contentLength === undefined ? {} : { 'content-length': contentLength }) } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const HEADER = 'id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency,orderId,description\n';

describe('import uploads', () => {
  it('chunked, with a multi-byte character split between two chunks: imported, the text intact', async () => {
    const description = 'Café – 日本株 wheel';
    const bytes = Buffer.from(`${HEADER}up-1,2024-03-04T15:00:00Z,uploads,BUY,SPY,SPY,1,500,0,0,-500,USD,,${description}\n`);
    const split = bytes.indexOf(Buffer.from('日')) + 1; // inside the three bytes of 日
    const answer = await upload([bytes.subarray(0, split), bytes.subarray(split)]);
    expect(answer.status).toBe(201);
    expect(answer.body.imported).toBe(1);
    const page = (await (await fetch(`${server.apiBaseUrl}/journal/transactions?symbol=SPY`, { headers: { authorization: `Bearer ${server.apiKey}` } })).json()) as { transactions: Array<{ description: string }> };
    expect(page.transactions.map((t) => t.description)).toEqual([description]);
  });

  it('with Content-Length, in many small writes: imported', async () => {
    const bytes = Buffer.from(`${HEADER}${Array.from({ length: 200 }, (_, i) => `up-cl-${i},2024-03-05T15:00:00Z,uploads,BUY,QQQ,QQQ,1,400,0,0,-400,USD,,row ${i}`).join('\n')}\n`);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 700) }, (_, i) => bytes.subarray(i * 700, (i + 1) * 700));
    const answer = await upload(chunks, bytes.length);
    expect(answer.status).toBe(201);
    expect(answer.body.imported).toBe(200);
  });

  it('chunked beyond 50 MB: 413 PAYLOAD_TOO_LARGE, nothing stored, the server answers on', async () => {
    const before = server.ctx.db.prepare('SELECT COUNT(*) FROM imports').pluck().get();
    const mb = Buffer.alloc(1024 * 1024, 'a');
    const answer = await upload(Array.from({ length: 51 }, () => mb)).catch((error: unknown) => ({ status: -1, body: { error: String(error) } }));
    // The server may close the socket once it has answered; either way nothing was stored.
    if (answer.status !== -1) expect(answer).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(server.ctx.db.prepare('SELECT COUNT(*) FROM imports').pluck().get()).toBe(before);
    expect((await fetch(`${server.apiBaseUrl}/health`)).status).toBe(200);
  });

  it('a Content-Length above 50 MB is refused before any byte is read', async () => {
    const answer = await upload([Buffer.from('x')], 60 * 1024 * 1024).catch((error: unknown) => ({ status: -1, body: { error: String(error) } }));
    expect(answer).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});
