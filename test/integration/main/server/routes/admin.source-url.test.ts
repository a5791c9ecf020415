/**
 * The online source's address on PUT /v1/settings (issue 29, finding 8): credentials in the URL, CR LF, port 99999,
 * link-local and metadata hosts were stored. Each is now 400 INVALID_PARAMETER naming `onlineSource.baseUrl` with the
 * reason, and nothing is stored; a local data server (loopback, a private address) and the CBOE default are taken
 * (docs/decisions.md, "The online source's address"). A real loopback server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { DEFAULT_SETTINGS } from '../../../../../src-main/settings';
import { tempDir } from '../../../../paths';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ dataDir: tempDir(), port: 0, uiDir: null });
});
afterAll(async () => {
  await server?.close();
});

const headers = () => ({ authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' });

async function putBaseUrl(baseUrl: string): Promise<{ status: number; body: { code?: string; detail?: string; errors?: Array<{ param: string; message: string }>; onlineSource?: { baseUrl: string } } }> {
  const response = await fetch(`${server.apiBaseUrl}/settings`, { method: 'PUT', headers: headers(), body: JSON.stringify({ onlineSource: { enabled: true, baseUrl, watchlist: ['SPX'], intervalSeconds: 300 } }) });
  return { status: response.status, body: (await response.json()) as { code?: string } };
}

async function storedBaseUrl(): Promise<string> {
  const response = await fetch(`${server.apiBaseUrl}/settings`, { headers: headers() });
  return ((await response.json()) as { onlineSource: { baseUrl: string } }).onlineSource.baseUrl;
}

describe('PUT /v1/settings onlineSource.baseUrl', () => {
  it('refuses each bad address with its reason, naming the field; nothing is stored', async () => {
    const cases: Array<[string, RegExp]> = [
      ['https://user:secret@cdn.cboe.com/api/global/delayed_quotes/options', /user name or password/],
      ['https://cdn.cboe.com/api/options\r\nX-Injected: 1', /line break or another control character/],
      ['https://cdn.cboe.com:99999/api/options', /port 99999: a port is 1–65535/],
      ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254, a cloud metadata address/],
      ['http://[fe80::1]/options', /fe80::1\], a link-local address/],
      ['http://metadata.google.internal/computeMetadata/v1', /cloud metadata service/],
      ['ftp://cdn.cboe.com/options', /https:\/\/ or http:\/\//],
    ];
    for (const [url, reason] of cases) {
      const answer = await putBaseUrl(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body.code).toBe('INVALID_PARAMETER');
      expect(answer.body.errors?.[0]?.param, url).toBe('onlineSource.baseUrl');
      expect(answer.body.errors?.[0]?.message, url).toMatch(reason);
      expect(answer.body.detail, url).toMatch(reason);
      expect(answer.body.detail, 'the address is shown escaped: a CR LF as \\r\\n').not.toMatch(/[\r\n]/);
    }
    expect(await storedBaseUrl(), 'nothing was stored').toBe(DEFAULT_SETTINGS.onlineSource.baseUrl);
  });

  it('takes the CBOE default, a local data server on loopback or a private address, and empty (no source)', async () => {
    for (const url of ['https://cdn.cboe.com/api/global/delayed_quotes/options', 'http://127.0.0.1:8080/chains', 'http://192.168.1.20:8000/options', 'http://localhost:9000/', '']) {
      const answer = await putBaseUrl(url);
      expect(answer.status, `${url}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body.onlineSource?.baseUrl).toBe(url);
    }
  });
});

