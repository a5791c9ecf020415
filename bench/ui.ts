/**
 * Renderer budgets (docs/architecture.md §Budgets): the initial JS of the built renderer, gzipped, and the time headless Chromium
 * takes to render the journal page with demo data (median of 5 fresh page loads).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildRenderer, hasChromium, launch, repoRoot, startServe } from '../test/e2e/harness';

export interface UiMetric {
  name: string;
  value: number;
  unit: string;
  budget: number;
  ok: boolean;
}

/** The entry script plus the chunks index.html preloads: what the browser must fetch before the first paint. */
export function initialJsGzipKb(rendererDir = join(repoRoot, 'out/renderer')): number {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const match of html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)) if (match[1]) files.add(match[1]);
  for (const match of html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)) if (match[1]) files.add(match[1]);
  let bytes = 0;
  for (const file of files) bytes += gzipSync(readFileSync(join(rendererDir, file.replace(/^\.?\//, '')))).length;
  return bytes / 1024;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export async function benchUi(): Promise<UiMetric[]> {
  buildRenderer();
  const bundleKb = initialJsGzipKb();
  const metrics: UiMetric[] = [{ name: 'ui.bundle_gzip_kb', value: Math.round(bundleKb * 10) / 10, unit: 'KB', budget: 400, ok: bundleKb <= 400 }];
  if (!hasChromium) {
    metrics.push({ name: 'ui.journal_render_ms', value: Number.NaN, unit: 'ms (no Chromium)', budget: 1500, ok: false });
    return metrics;
  }
  const served = await startServe({ demo: true });
  const browser = await launch();
  try {
    const runs: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 960 } });
      const page = await context.newPage();
      await page.goto(served.uiUrl);
      // Rendered = summary cards, the calendar, the year stats and the equity curve's canvas are on screen.
      await page.waitForSelector('[data-testid="summary-cards"]');
      await page.waitForSelector('[data-testid="year-stats"]');
      await page.waitForSelector('.chart canvas');
      // performance.now() counts from the navigation start of this page load.
      // (The callback runs in the page; this file is type-checked without DOM types, hence the string.)
      const elapsed = Number(await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())))'));
      runs.push(elapsed);
      await context.close();
    }
    const ms = median(runs);
    metrics.push({ name: 'ui.journal_render_ms', value: Math.round(ms), unit: 'ms', budget: 1500, ok: ms <= 1500 });
  } finally {
    await browser.close();
    await served.stop();
  }
  return metrics;
}
