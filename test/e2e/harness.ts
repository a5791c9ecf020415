/**
 * Browser-test harness: builds the renderer, spawns `strikebook serve` on a temporary data folder and a free
 * port, and drives system Chromium through playwright-core (never a downloaded browser).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';

export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** For the bench's UI lines (bench/ui.ts); the browser tests need no check: their global setup fails without Chromium. */
export const hasChromium = existsSync(chromiumPath);
export const screenshotDir = join(repoRoot, 'test-results', 'screenshots');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let built = false;
/** `npm run build:web` once per process, so the tests always see the current renderer. */
export function buildRenderer(): void {
  if (built && existsSync(join(repoRoot, 'out/renderer/index.html'))) return;
  const result = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`renderer build failed:\n${result.stdout}\n${result.stderr}`);
  built = true;
}

export interface Served {
  uiUrl: string;
  apiBaseUrl: string;
  key: string;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startServe(options: { demo: boolean } = { demo: true }): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'strikebook-e2e-'));
  const args = [join(repoRoot, 'bin/strikebook.mjs'), 'serve', '--port', '0', '--data-dir', dataDir];
  if (options.demo) args.splice(2, 0, '--demo');
  const child: ChildProcess = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const started = Date.now();
  let uiUrl: string | undefined;
  let apiBaseUrl: string | undefined;
  while (Date.now() - started < 60_000) {
    uiUrl = /UI:\s+(\S+)/.exec(out)?.[1];
    apiBaseUrl = /API:\s+(\S+)/.exec(out)?.[1];
    if (uiUrl && apiBaseUrl) break;
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!uiUrl || !apiBaseUrl) {
    child.kill();
    throw new Error(`serve printed no UI URL within 60 s:\n${out}`);
  }
  const key = decodeURIComponent(/#key=([^\s&]+)/.exec(uiUrl)?.[1] ?? '');
  return {
    uiUrl,
    apiBaseUrl,
    key,
    dataDir,
    output: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true });
}

/** Collects console errors and uncaught page errors; tests assert the list stays empty. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  // Chromium logs failed loads without the URL; keep the URL so a failure says what was missing.
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`http ${response.status()}: ${response.request().method()} ${response.url().replace(/(access_token|ticket)=[^&]+/, '$1=…')}`);
  });
  return errors;
}

export async function api<T>(served: Served, path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${served.apiBaseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${served.key}`, ...(init.headers ?? {}) } });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A fresh context at the given size and colour scheme, the app loaded with its key. */
export async function openPage(
  browser: Browser,
  served: Served,
  options: { width: number; height?: number; theme: 'light' | 'dark' },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: options.width, height: options.height ?? 900 }, colorScheme: options.theme });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(served.uiUrl);
  await page.waitForSelector('nav[aria-label="Main"]', { state: 'attached' });
  return { context, page, errors };
}

/** What shows that a page has its data: the selector each page test waits for. */
export const PAGE_READY = {
  journal: '[data-testid="year-stats"]',
  transactions: '[data-testid="transactions-table"]',
  import: '[data-testid="import-history"]',
  exposure: '[data-testid="vanna-levels"]',
  events: '[data-testid="events-table"]',
  settings: '[data-testid="data-dir"]',
} as const;

/** Goes to a page through the main navigation, opening the Menu first when the window is narrow. */
export async function goTo(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^.?\\s*${name}$`, 'i') }).click();
  await page.waitForSelector(`[data-testid="page-${name.toLowerCase()}"]`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}
