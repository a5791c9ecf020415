/**
 * The journal worker starts in every way the code runs (issue 8): vitest on the sources (every other test), the CLI
 * from the sources through tsx, the esbuild bundle of `npm run build:node`, and the Electron main bundle of
 * electron-vite (Electron itself cannot run here: its worker entry is driven by the real client under Node).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../src-main/db/open';
import { WriteQueue } from '../../../../../src-main/db/writes';
import { systemClock } from '../../../../../src-main/clock';
import { createJournalClient, journalWorkerScript } from '../../../../../src-main/services/journal/client';
import { DEFAULT_SETTINGS } from '../../../../../src-main/settings';
import { startServe } from '../../../../cli';
import { REPO_ROOT, tempDir } from '../../../../paths';

const PFE = join(REPO_ROOT, 'test/fixtures/brokers/tastytrade_v2_21col_PFE_binnaculum.csv');
// Inside the repository (test-results/ is ignored by git): the bundles resolve node_modules and "type": "module" there.
const buildRoot = join(REPO_ROOT, 'test-results', `worker-modes-${process.pid}`);
afterAll(() => rmSync(buildRoot, { recursive: true, force: true }));

/** `strikebook serve` run as `entry`: an import and a journal read through HTTP are answered by its worker. */
async function importThroughServe(entry: string[]): Promise<void> {
  const dataDir = tempDir();
  const server = await startServe(['--port', '0', '--data-dir', dataDir], 90_000, { entry });
  try {
    const key = readFileSync(server.keyFile, 'utf8').trim();
    const headers = { authorization: `Bearer ${key}` };
    const imported = await fetch(`${server.apiBaseUrl}/imports`, { method: 'POST', headers: { ...headers, 'content-type': 'text/csv' }, body: readFileSync(PFE) });
    expect(imported.status, await imported.clone().text()).toBe(201);
    expect(((await imported.json()) as { imported: number }).imported).toBeGreaterThan(0);
    const page = await fetch(`${server.apiBaseUrl}/journal/transactions?limit=1`, { headers });
    expect(page.status).toBe(200);
    expect(((await page.json()) as { pagination: { total: number } }).pagination.total).toBeGreaterThan(0);
  } finally {
    server.child.kill('SIGTERM');
    expect(await server.exited, `serve stopped cleanly; stderr: ${server.stderr()}`).toBe(0);
  }
}

describe('the journal worker starts in every run mode', () => {
  it('the CLI from the sources through tsx (bin/run-ts.mjs)', async () => {
    await importThroughServe([join(REPO_ROOT, 'bin/run-ts.mjs'), join(REPO_ROOT, 'src-main/cli.ts')]);
  }, 120_000);

  it('the esbuild bundle (scripts/build-node.mjs builds cli.mjs and journal-worker.mjs)', async () => {
    const outdir = join(buildRoot, 'node');
    const build = spawnSync(process.execPath, ['scripts/build-node.mjs', '--outdir', outdir], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(build.status, build.stderr).toBe(0);
    expect(journalWorkerScript(pathToFileURL(join(outdir, 'cli.mjs')).href).script.pathname).toBe(join(outdir, 'journal-worker.mjs'));
    await importThroughServe([join(outdir, 'cli.mjs')]);
  }, 120_000);

  it('the Electron main bundle (electron-vite builds out/main/journal-worker.js beside main.js)', async () => {
    const outDir = join(buildRoot, 'electron');
    mkdirSync(outDir, { recursive: true });
    const build = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--outDir', outDir], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    const mainJs = pathToFileURL(join(outDir, 'main', 'main.js')).href;
    expect(journalWorkerScript(mainJs).script.pathname, 'the main process finds the worker beside itself').toBe(join(outDir, 'main', 'journal-worker.js'));

    const dbPath = join(tempDir(), 'strikebook.db');
    const { db } = openDatabase(dbPath);
    // The Electron app passes its own build of better-sqlite3; here Node's, through the same option.
    const nativeBinding = join(REPO_ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    const journal = createJournalClient({ dbPath, writes: new WriteQueue(db), settings: () => DEFAULT_SETTINGS, clock: systemClock, nativeBinding, moduleUrl: mainJs });
    try {
      await journal.ready();
      const report = await journal.importFile({ text: readFileSync(PFE), filename: 'pfe.csv' });
      expect(report.ok && report.value.imported).toBeGreaterThan(0);
      expect((await journal.listImports()).imports.map((i) => i.filename)).toEqual(['pfe.csv']);
    } finally {
      await journal.close();
      db.close();
    }
  }, 180_000);
});
