/**
 * An export never writes or reads through a symbolic link (issue 29, finding 2; docs/architecture.md §Reliability and
 * security): not as the folder (`<data folder>/exports`, `--out`), not as any folder under it, not as a file it
 * reads back. Before, `POST /v1/exports` with `exports` a link wrote 114 files into wherever it pointed. `--out` on
 * /proc spun until killed; it and a file as `--out` are now one line each.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportJobJson } from '../../../../src-shared/api/schemas';
import { DEMO_SEED, demoMarket } from '../../../../src-shared/demo/market';
import { exportLake } from '../../../../src-main/services/lake/export';
import { exportFolderProblem } from '../../../../src-main/lake/folder';
import { runCli } from '../../../cli';
import { buildTestApp, storeChain, type TestApp } from '../../../helper';
import { scratchFolders } from '../../../duck';

const folders = scratchFolders();
afterAll(() => folders.removeAll());

const RATE = 0.04;
const chains = demoMarket(DEMO_SEED).filter((s) => s.symbol === 'SPY').slice(-2);

/** Every file and folder under `dir` (links included, not followed). */
function everything(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

async function waitFor(app: TestApp, id: string): Promise<ExportJobJson> {
  for (;;) {
    const { body } = await app.get<ExportJobJson>(`/v1/exports/${id}`);
    if (body.state !== 'running') return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('POST /v1/exports with links in the data folder', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp({ overrides: { rate: RATE } });
    for (const chain of chains) storeChain(app.ctx, chain);
  }, 60_000);
  afterAll(async () => app.close());

  const post = () => app.request({ method: 'POST', url: '/v1/exports', headers: { 'content-type': 'application/json' }, payload: '{}' });

  it('refuses exports/ that is a link, writing nothing where it points', async () => {
    const elsewhere = folders.make('strikebook-elsewhere-');
    symlinkSync(elsewhere, join(app.dataDir, 'exports'));
    try {
      const answer = await post();
      expect(answer.statusCode, answer.body).toBe(409);
      expect(answer.json<{ detail: string }>().detail).toBe(`The export folder cannot be written: ${join(app.dataDir, 'exports')} is a symbolic link: Strikebook does not follow links in an export folder (it would write wherever the link points). Put a real folder there, or export into another folder.`);
      expect(everything(elsewhere)).toEqual([]);
    } finally {
      rmLink(join(app.dataDir, 'exports'));
    }
  });

  for (const [what, link] of [
    ['a folder under it (contracts/)', 'contracts'],
    ['a partition folder (symbol=SPY/)', join('contracts', 'symbol=SPY')],
  ] as const) {
    it(`stops at ${what} that is a link, naming it, with nothing written where it points`, async () => {
      const elsewhere = folders.make('strikebook-elsewhere-');
      const exports = join(app.dataDir, 'exports');
      mkdirSync(join(exports, link, '..'), { recursive: true });
      symlinkSync(elsewhere, join(exports, link));
      try {
        const started = await post();
        expect(started.statusCode, started.body).toBe(202);
        const job = await waitFor(app, started.json<ExportJobJson>().id);
        expect(job.state).toBe('failed');
        expect(job.error).toContain(`${join(exports, link)} is a symbolic link`);
        expect(everything(elsewhere)).toEqual([]);
      } finally {
        rmLink(join(exports, link));
      }
    });
  }
});

/** The link goes (unlink, not rm -r); the folder it points at stays as the test left it. */
function rmLink(path: string): void {
  unlinkSync(path);
}

describe('exportLake', () => {
  let db: TestApp;
  beforeAll(async () => {
    db = await buildTestApp({ overrides: { rate: RATE } });
    for (const chain of chains) storeChain(db.ctx, chain);
  }, 60_000);
  afterAll(async () => db.close());

  it('reads no file through a link: a transactions.parquet that is a link stops the export, the file it points at unchanged', () => {
    const out = folders.make('strikebook-lake-');
    const target = join(folders.make('strikebook-elsewhere-'), 'precious.txt');
    writeFileSync(target, 'precious');
    symlinkSync(target, join(out, 'transactions.parquet'));
    const result = exportLake(db.ctx.db, { out }, RATE);
    expect(result.ok ? null : result.error).toMatchObject({ kind: 'invalid-request', problems: [{ param: 'out', message: expect.stringContaining(`${join(out, 'transactions.parquet')} is a symbolic link`) }] });
    expect(readFileSync(target, 'utf8')).toBe('precious');
  });

  it('reads no snapshot file through a link: a contracts file that is a link stops the export', () => {
    const out = folders.make('strikebook-lake-');
    const first = exportLake(db.ctx.db, { out }, RATE);
    expect(first.ok).toBe(true);
    const file = everything(out).find((f) => f.startsWith('contracts/') && f.endsWith('.parquet')) ?? '';
    const target = join(folders.make('strikebook-elsewhere-'), 'other.parquet');
    writeFileSync(target, readFileSync(join(out, file)));
    unlinkSync(join(out, file));
    symlinkSync(target, join(out, file));
    const again = exportLake(db.ctx.db, { out }, RATE);
    expect(again.ok ? null : again.error).toMatchObject({ kind: 'invalid-request', problems: [{ param: 'out', message: expect.stringContaining(`${join(out, file)} is a symbolic link`) }] });
  });

  it('takes a folder whose parents are links (the user’s, as macOS’s /tmp is): only the folder and what is under it are judged', () => {
    const real = folders.make('strikebook-real-');
    const alias = join(folders.make('strikebook-alias-'), 'alias');
    symlinkSync(real, alias);
    const result = exportLake(db.ctx.db, { out: join(alias, 'lake') }, RATE);
    expect(result.ok && result.value.snapshots.written).toBe(chains.length);
    expect(everything(join(real, 'lake'))).toContain('contracts');
  });

  it('names what a folder cannot be: a special file system, a file, a link', () => {
    const file = join(folders.make('strikebook-file-'), 'a.txt');
    writeFileSync(file, 'x');
    expect(exportFolderProblem('/proc/self')).toBe("/proc/self is on the system's /proc file system, not a disk: choose a folder of your own");
    expect(exportFolderProblem('/sys/kernel/new')).toMatch(/^\/sys\/kernel\/new is on the system's \/sys file system/);
    expect(exportFolderProblem('/dev/shm/lake')).toMatch(/^\/dev\/shm\/lake is on the system's \/dev file system/);
    expect(exportFolderProblem(file)).toBe(`${file} is a file: name a folder (it is created when missing)`);
    expect(exportFolderProblem(join(folders.make('strikebook-new-'), 'not', 'yet'))).toBeNull();
  });
});

describe('strikebook export --out', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = folders.make('strikebook-cli-');
    const app = await buildTestApp({ dataDir, overrides: { rate: RATE } });
    for (const chain of chains) storeChain(app.ctx, chain);
    await app.close();
  }, 60_000);

  for (const [what, out] of [
    ['/proc/self', () => '/proc/self'],
    ['a file', () => {
      const file = join(folders.make('strikebook-file-'), 'lake.txt');
      writeFileSync(file, 'x');
      return file;
    }],
    ['a link', () => {
      const link = join(folders.make('strikebook-link-'), 'lake');
      symlinkSync(folders.make('strikebook-elsewhere-'), link);
      return link;
    }],
  ] as const) {
    it(`refuses ${what} in one line, exit status 1`, () => {
      const path = out();
      const run = runCli(['export', '--out', path, '--data-dir', dataDir]);
      expect(run.status, run.stderr).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
      expect(run.stderr).toContain(path);
    }, 60_000);
  }
});
