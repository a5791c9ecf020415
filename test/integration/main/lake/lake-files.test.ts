/**
 * The lake's files as files: the export's filters and refusals (an unknown symbol, a folder that is a file, another
 * data folder's lake), an export killed mid-way (whole files only; the next export finishes the same lake), and a
 * lake read back with foreign, cut, wrong-schema and wrong-valued files among good ones: each refused with its
 * reason, nothing of it stored, the good snapshots stored. The CLI's two commands end to end.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotsResponseT } from '../../../../src-shared/api/schemas';
import { DEMO_SEED, demoMarket } from '../../../../src-shared/demo/market';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import { exportLake } from '../../../../src-main/services/lake/export';
import { importLake, type LakeImportSummary } from '../../../../src-main/services/lake/import';
import { buildParquet } from '../../../../src-main/lake/parquet';
import { contractsColumns } from '../../../../src-main/lake/rows';
import { CONTRACTS, LAKE_VERSION } from '../../../../src-main/lake/tables';
import { runCli } from '../../../cli';
import { buildTestApp, REPO_ROOT, storeChain, type TestApp } from '../../../helper';
import { openDuck, scratchFolders } from '../../../duck';
import { asTicker } from '../../../../src-shared/ids';

const folders = scratchFolders();
afterAll(() => folders.removeAll());

const RATE = 0.04;
const market = demoMarket(DEMO_SEED);
const aapl = market.filter((s) => s.symbol === 'AAPL').slice(0, 6);
const spy = market.filter((s) => s.symbol === 'SPY').slice(-1);

function visibleFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.startsWith('.')) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

function treeBytes(dir: string): Record<string, string> {
  return Object.fromEntries(visibleFiles(dir).map((file) => [file, readFileSync(join(dir, file)).toString('base64')]));
}

async function withApp<T>(chains: readonly ChainSnapshot[], run: (app: TestApp) => Promise<T>): Promise<T> {
  const app = await buildTestApp({ overrides: { rate: RATE } });
  try {
    for (const chain of chains) storeChain(app.ctx, chain);
    return await run(app);
  } finally {
    await app.close();
  }
}

describe('exporting into a folder', () => {
  let source: TestApp;
  beforeAll(async () => {
    source = await buildTestApp({ overrides: { rate: RATE } });
    for (const chain of [...aapl, ...spy]) storeChain(source.ctx, chain);
  });
  afterAll(async () => source.close());

  it('--symbol, --from and --to choose the snapshots (a date is a whole New York day, an instant is exact)', () => {
    const out = folders.make('strikebook-lake-');
    const bounded = exportLake(source.ctx.db, { out, symbol: asTicker('aapl'), from: aapl[1]?.quoteTime ?? '', to: aapl[3]?.quoteTime ?? '' }, RATE);
    expect(bounded.ok && bounded.value.snapshots.written, 'the AAPL snapshots quoted from the 2nd to the 4th').toBe(3);
    const day = exportLake(source.ctx.db, { out: folders.make('strikebook-lake-'), from: '2026-11-20', to: '2026-11-20' }, RATE);
    expect(day.ok && day.value.snapshots.total).toBe(aapl.length + spy.length);
    const none = exportLake(source.ctx.db, { out: folders.make('strikebook-lake-'), to: '2026-11-19' }, RATE);
    expect(none.ok && none.value.snapshots.total).toBe(0);
  });

  it('refuses an unknown symbol, and a --out that is a file, writing nothing', () => {
    const out = folders.make('strikebook-lake-');
    const unknown = exportLake(source.ctx.db, { out, symbol: asTicker('QQQ') }, RATE);
    expect(unknown.ok ? null : unknown.error).toEqual({ kind: 'unknown-symbol', symbol: 'QQQ', known: ['AAPL', 'SPY'] });
    const file = join(out, 'a-file');
    writeFileSync(file, 'x');
    const notFolder = exportLake(source.ctx.db, { out: file }, RATE);
    expect(notFolder.ok ? null : notFolder.error.kind).toBe('invalid-request');
    expect(visibleFiles(out)).toEqual(['a-file']);
  });

  it('stops at a lake of another data folder (the same file names, other snapshots), changing none of its files', async () => {
    const out = folders.make('strikebook-lake-');
    expect(exportLake(source.ctx.db, { out }, RATE).ok).toBe(true);
    const before = treeBytes(out);
    await withApp([...spy, ...aapl], async (other) => {
      const clash = exportLake(other.ctx.db, { out }, RATE);
      expect(clash.ok ? null : clash.error.kind).toBe('conflict');
      expect(clash.ok ? '' : JSON.stringify(clash.error)).toContain('another data folder');
    });
    expect(treeBytes(out)).toEqual(before);
  });

  it('an export killed mid-way leaves whole files only; the next one finishes the same lake', async () => {
    const out = folders.make('strikebook-lake-');
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/run-ts.mjs'), join(REPO_ROOT, 'test/integration/main/services/lake/export.child.ts'), source.dataDir, out]);
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('done 2\n')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the child ended (${String(code)}) before pausing: ${stdout}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    const partial = visibleFiles(out);
    expect(partial.length, 'two snapshots: a contracts and a levels file each').toBe(4);
    // What a kill during a write leaves behind: the writer's hidden temporary file, cut short.
    const half = readFileSync(join(out, partial[0] ?? ''));
    writeFileSync(join(out, `.${partial[0]?.split('/').at(-1) ?? ''}.123-1.tmp`), half.subarray(0, half.byteLength >> 1));
    const duck = await openDuck();
    try {
      const [row] = await duck.rows(`SELECT count(*) AS n FROM read_parquet('${out}/contracts/**/*.parquet', hive_partitioning = true)`);
      expect(row?.n, 'DuckDB reads every visible file whole and skips the hidden one').toBe(String((aapl[0]?.contracts.length ?? 0) + (aapl[1]?.contracts.length ?? 0)));
    } finally {
      duck.close();
    }
    const rest = exportLake(source.ctx.db, { out }, RATE);
    expect(rest.ok && rest.value.snapshots).toEqual({ total: 7, written: 5, skipped: 2 });
    const fresh = folders.make('strikebook-lake-');
    expect(exportLake(source.ctx.db, { out: fresh }, RATE).ok).toBe(true);
    expect(treeBytes(out), 'the finished lake is the one a single export writes').toEqual(treeBytes(fresh));
  }, 120_000);
});

describe('reading a lake back', () => {
  let lake: string;
  let summary: LakeImportSummary;
  let listed: SnapshotsResponseT;

  beforeAll(async () => {
    lake = folders.make('strikebook-lake-');
    await withApp([...aapl, ...spy], async (app) => {
      expect(exportLake(app.ctx.db, { out: lake }, RATE).ok).toBe(true);
    });
    const duck = await openDuck();
    try {
      await duck.run(`COPY (SELECT 1 AS snapshot_id, 'x' AS root) TO '${lake}/contracts/foreign.parquet' (FORMAT parquet)`);
    } finally {
      duck.close();
    }
    const good = visibleFiles(lake).find((f) => f.startsWith('contracts/symbol=AAPL')) ?? '';
    const bytes = readFileSync(join(lake, good));
    writeFileSync(join(lake, 'contracts', 'cut.parquet'), bytes.subarray(0, bytes.byteLength - 100));
    // A file of the lake's own making, but with a negative open interest on row 5 and a right "X" on row 7.
    const chain = aapl[0] as ChainSnapshot;
    const tampered = chain.contracts.map((c, i) => (i === 4 ? { ...c, openInterest: -3 } : i === 6 ? { ...c, right: 'X' as 'C' } : i === 9 ? { ...(chain.contracts[8] ?? c) } : c));
    const quoteTime = '2026-11-21T15:00:00.000Z';
    const head = { id: 999, symbol: 'AAPL', quoteTime, spot: chain.spot, source: 'demo' as const, digest: 'f'.repeat(64) };
    const none = tampered.map(() => null);
    const meta = { version: LAKE_VERSION, symbol: 'AAPL', snapshotId: 999, quoteTime, spot: chain.spot, source: 'demo', digest: head.digest, rate: RATE, rows: tampered.length };
    writeFileSync(join(lake, 'contracts', 'bad-values.parquet'), buildParquet(CONTRACTS, contractsColumns(head, tampered, { dte: none, delta: none, gamma: none }), { ...meta, table: 'contracts' }));
    writeFileSync(join(lake, 'contracts', 'version-2.parquet'), buildParquet(CONTRACTS, contractsColumns(head, chain.contracts, { dte: none, delta: none, gamma: none }), { ...meta, version: 2, table: 'contracts', rows: chain.contracts.length }));
    const narrow = CONTRACTS.map((spec) => (spec.name === 'strike' ? { ...spec, kind: 'int32' as const } : spec));
    const integerStrikes = contractsColumns(head, chain.contracts.map((c) => ({ ...c, strike: Math.round(c.strike) })), { dte: none, delta: none, gamma: none });
    writeFileSync(join(lake, 'contracts', 'int-strikes.parquet'), buildParquet(narrow, integerStrikes, { ...meta, table: 'contracts', rows: chain.contracts.length }));
    await withApp([], async (target) => {
      const result = await importLake(lake, { ingest: (s) => target.ctx.exposure.ingest({ snapshot: s }), retention: () => 20 });
      if (!result.ok) throw new Error(JSON.stringify(result.error));
      summary = result.value;
      listed = (await target.get<SnapshotsResponseT>('/v1/snapshots?symbol=AAPL')).body;
    });
  }, 120_000);

  it('stores every good snapshot, and nothing of a refused file', () => {
    expect(summary.snapshots).toEqual({ found: 8, stored: 7, alreadyStored: 0, beyondRetention: 0 });
    expect(listed.snapshots.map((s) => s.quoteTime).sort(), 'the six AAPL snapshots, not the tampered one').toEqual(aapl.map((s) => new Date(Date.parse(s.quoteTime)).toISOString()).sort());
  });

  it('refuses each bad file with its reason', () => {
    const reasons = Object.fromEntries(summary.refused.map((r) => [r.file, r.problems.join(' | ')]));
    expect(Object.keys(reasons).sort()).toEqual(['contracts/bad-values.parquet', 'contracts/cut.parquet', 'contracts/foreign.parquet', 'contracts/int-strikes.parquet', 'contracts/version-2.parquet']);
    expect(reasons['contracts/foreign.parquet']).toMatch(/not a Strikebook lake file.*another program/);
    expect(reasons['contracts/cut.parquet']).toMatch(/not a readable Parquet file/);
    const ninth = aapl[0]?.contracts[8];
    expect(reasons['contracts/bad-values.parquet']).toBe(
      `row 5: open_interest -3 is not a number ≥ 0 | row 7: right "X" is not C or P | row 10: the same contract as row 9 (${ninth?.root} ${ninth?.expiration} ${ninth?.strike} ${ninth?.right})`,
    );
    expect(reasons['contracts/version-2.parquet']).toMatch(/lake version 2; this Strikebook reads version 1/);
    expect(reasons['contracts/int-strikes.parquet']).toBe('column strike is INT32 REQUIRED, expected DOUBLE REQUIRED');
  });

  it('refuses a path that is no folder, and a folder without Parquet files', async () => {
    const target = { ingest: () => Promise.resolve({ ok: false as const, error: { kind: 'not-found' as const, what: 'chain' as const, id: 0 } }), retention: () => 20 };
    const missing = await importLake(join(lake, 'nope'), target);
    expect(missing.ok ? null : missing.error.kind).toBe('invalid-request');
    const empty = await importLake(folders.make('strikebook-empty-'), target);
    expect(empty.ok ? null : empty.error).toMatchObject({ kind: 'file-refused', unsupported: true });
  });
});

describe('the CLI', () => {
  it('strikebook export --out and strikebook chain import DIR, with progress on stderr and a summary on stdout', async () => {
    const dataDir = folders.make('strikebook-cli-');
    const app = await buildTestApp({ dataDir, overrides: { rate: RATE } });
    for (const chain of aapl.slice(0, 2)) storeChain(app.ctx, chain);
    await app.close();
    const out = join(folders.make('strikebook-lake-'), 'lake');
    const exported = runCli(['export', '--out', out, '--data-dir', dataDir]);
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/lake: 2 snapshots written \(1,3\d\d contract rows\), 0 already there, of 2; no journal to write; 4 files/);
    expect(exported.stderr, 'a progress line per tenth when stderr is not a terminal').toContain('export [############################] 2/2');
    expect(existsSync(join(out, 'contracts', 'symbol=AAPL', 'date=2026-11-20'))).toBe(true);
    const again = runCli(['export', '--out', out, '--data-dir', dataDir]);
    expect(again.stdout).toContain('0 snapshots written (0 contract rows), 2 already there, of 2');

    const fresh = folders.make('strikebook-cli-');
    writeFileSync(join(out, 'contracts', 'junk.parquet'), 'not parquet');
    const imported = runCli(['chain', 'import', out, '--data-dir', fresh]);
    expect(imported.status, 'a refused file fails the command').toBe(1);
    expect(imported.stdout).toMatch(/2 snapshots stored, 0 already stored, \d+ events?; 1 file refused/);
    expect(imported.stderr).toContain('contracts/junk.parquet:');
    expect(imported.stderr).toContain('not a readable Parquet file');
    const usage = runCli(['export', '--data-dir', fresh]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--out');
  }, 120_000);
});
