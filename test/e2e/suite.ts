/**
 * The life cycle most browser suites share: the renderer built, `strikebook serve` on a temporary folder and
 * system Chromium for the enclosing describe, stopped after it. Separate from harness.ts, which the bench loads
 * outside vitest.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildRenderer, launch, openPage, startServe, type Served } from './harness';

export interface ServedSuite {
  served: () => Served;
  browser: () => Browser;
  /** Runs `body` on a fresh page of the app; afterwards no console error, page error or failed request may be left. */
  onPage: (options: { width: number; height?: number; theme: 'light' | 'dark' }, body: (page: Page) => Promise<void>) => Promise<void>;
}

/** `prepare` runs once the server is up (imports through the API, say), before the browser starts. */
export function serveForSuite(options: { demo: boolean; prepare?: (served: Served) => Promise<void> }): ServedSuite {
  let served: Served | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    buildRenderer();
    served = await startServe({ demo: options.demo });
    await options.prepare?.(served);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });
  const suite: ServedSuite = {
    served: () => {
      if (!served) throw new Error('the server of this suite did not start');
      return served;
    },
    browser: () => {
      if (!browser) throw new Error('the browser of this suite did not start');
      return browser;
    },
    onPage: async (pageOptions, body) => {
      const { context, page, errors } = await openPage(suite.browser(), suite.served(), pageOptions);
      try {
        await body(page);
        expect(errors, 'no console errors, page errors or failed requests').toEqual([]);
      } finally {
        await context.close();
      }
    },
  };
  return suite;
}
