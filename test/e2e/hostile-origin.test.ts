/**
 * Issue 8 in a real browser. A page on another loopback origin (a second local HTTP server) tries to write into
 * Strikebook with no-cors fetches and a form post, through `/%761/...` and the plain spellings, and to rotate the
 * key: nothing is stored, the key is unchanged (checked through the API afterwards). And the UI opened with a
 * malformed `#key=` shows the key screen with a message instead of a blank page.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { api, buildRenderer, launch, repoRoot, startServe, watchErrors, type Served } from './harness';

const csv = readFileSync(join(repoRoot, 'test/fixtures/brokers/generic_wheel_selfwritten.csv'), 'utf8');

/** The attacker's page: every write it can make without reading an answer, then `window.attackDone`. */
function attackPage(port: number): string {
  const bases = [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const paths = ['/%761/imports?broker=generic', '/v%31/imports?broker=generic', '/%76%31/imports', '/v1/imports?broker=generic', '/V1/IMPORTS', '/v1/imports/', '/v1%2fimports', '//v1/imports'];
  const rotations = ['/%761/keys/rotate', '/v1/keys/rotate', '/V1/keys/rotate/', '/v1%2fkeys%2frotate', '/%761/demo'];
  const targets = bases.flatMap((base) => [...paths.map((path) => ({ url: `${base}${path}`, body: true })), ...rotations.map((path) => ({ url: `${base}${path}`, body: false }))]);
  return `<!doctype html><html><body>
<iframe name="sink" title="sink"></iframe>
<form id="form" method="POST" enctype="text/plain" target="sink" action="http://127.0.0.1:${port}/%761/imports?broker=generic"><textarea name="x"></textarea></form>
<script>
const csv = ${JSON.stringify(csv)};
const targets = ${JSON.stringify(targets)};
window.attempts = [];
(async () => {
  for (const target of targets) {
    for (const type of ['text/csv', 'text/plain']) {
      try {
        await fetch(target.url, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': type }, body: target.body ? csv : undefined });
        window.attempts.push(target.url + ' sent');
      } catch (error) {
        window.attempts.push(target.url + ' ' + error);
      }
    }
  }
  const form = document.getElementById('form');
  form.querySelector('textarea').value = csv;
  form.submit();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  window.attackDone = true;
})();
</script></body></html>`;
}

describe('hostile pages in Chromium (issue 8)', () => {
  let served: Served;
  let browser: Browser;
  let attacker: Server;
  let attackerUrl = '';

  beforeAll(async () => {
    buildRenderer();
    served = await startServe({ demo: false });
    browser = await launch();
    const port = Number(new URL(served.apiBaseUrl).port);
    attacker = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(attackPage(port));
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const address = attacker.address();
    attackerUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/`;
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await new Promise((resolve) => attacker?.close(resolve));
  });

  it('a page on another loopback origin stores nothing and cannot rotate the key', async () => {
    const keyFile = join(served.dataDir, 'api-key');
    const keyBefore = readFileSync(keyFile, 'utf8').trim();
    const settingsBefore = await api<unknown>(served, '/settings');
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(attackerUrl);
      await page.waitForFunction(() => (window as unknown as { attackDone?: boolean }).attackDone === true, undefined, { timeout: 60_000 });
      const attempts = await page.evaluate(() => (window as unknown as { attempts: string[] }).attempts);
      expect(attempts.filter((a) => a.endsWith(' sent')).length, 'the browser did send the requests').toBeGreaterThan(40);
    } finally {
      await context.close();
    }
    expect(readFileSync(keyFile, 'utf8').trim(), 'the key file is unchanged').toBe(keyBefore);
    const imports = await api<{ imports: unknown[] }>(served, '/imports');
    expect(imports.imports, 'no import was stored').toEqual([]);
    const transactions = await api<{ transactions: unknown[] }>(served, '/journal/transactions');
    expect(transactions.transactions).toEqual([]);
    expect(await api<unknown>(served, '/settings'), 'the old key still works and nothing changed').toEqual(settingsBefore);
    const chains = await api<{ symbols: unknown[] }>(served, '/chains');
    expect(chains.symbols, 'no demo was loaded').toEqual([]);
  });

  it('a malformed #key= fragment shows the key screen with a message, and a pasted key then connects', async () => {
    const base = served.uiUrl.replace(/#.*$/, '');
    for (const fragment of ['#key=%E0%A4%A', '#key=%F0%9F%9A%80', '#/journal&key=a%20b', '#key=%']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = watchErrors(page);
      try {
        await page.goto(`${base}${fragment}`);
        const alert = page.getByRole('alert');
        await alert.waitFor();
        expect(await alert.textContent(), fragment).toMatch(/key in the address .* was not used/);
        await page.getByText('This page needs the API key').waitFor();
        expect(await page.evaluate(() => window.location.hash), 'the bad key left the address bar').not.toContain('key=');
        expect(errors, fragment).toEqual([]);
        if (fragment === '#key=%') {
          await page.getByLabel('API key').fill('not a key');
          await page.getByRole('button', { name: 'Connect' }).click();
          expect(await page.getByRole('alert').textContent()).toMatch(/not a key/);
          await page.getByLabel('API key').fill(served.key);
          await page.getByRole('button', { name: 'Connect' }).click();
          await page.waitForSelector('nav[aria-label="Main"]');
          expect(errors).toEqual([]);
        }
      } finally {
        await context.close();
      }
    }
  });
});
