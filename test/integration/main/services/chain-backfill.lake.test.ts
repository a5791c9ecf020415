/**
 * Backfill from a Parquet lake (issue 30, item 3): a data folder holding real CBOE chains (five real downloads of
 * ../shared/fixtures/chains and 30 copies of the small SPX one at other quote times, backfilled from their folder) is
 * exported as a lake (`strikebook export`); the lake is backfilled into a fresh data folder through
 * POST /v1/chains/backfill, interrupted (the server closes) and continued by a new server. Every snapshot is stored
 * once, with the original's digest and the original's /gex (the default scope and the 0-DTE per-1 % one); the chain
 * files themselves backfilled afterwards are recognised as stored (the same chain by content). A foreign Parquet file
 * and a cut lake file fail alone, each named with its reason. A journal imported before the backfill gets its history
 * filled in after it: levels at entry (those of /gex at each open), marks from the snapshots, expiry evidence.
 */
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackfillJobT, BackfillStatusT, GexResponseT, PositionsResponseT, SnapshotsResponseT, TradesResponseT } from '../../../../src-shared/api/schemas';
import { exportLake } from '../../../../src-main/services/lake/export';
import { parquetFilesUnder } from '../../../../src-main/lake/layout';
import { manualClock } from '../../../clock';
import { buildTestApp, type TestApp } from '../../../helper';
import { CHAIN_FIXTURES, tempDir } from '../../../paths';
import { CHAIN_TABLE, rawContracts, readChain } from '../../../quotedata';
import { writeShiftedChains } from '../../../chain-files';

const RATE = 0.04;
const SHIFTED = 30;
/** Real downloads: two 20k-contract SPX chains, SPY, AMD (an adjusted root among its rows), TSLA. */
const REAL = ['SPX_quotedata_2024-01-05close_phammings.csv', 'SPX_quotedata_2023-09-14_carlos.csv', 'SPY_quotedata_2023-09-14_carlos.csv', 'AMD_quotedata_2023-08-18close_aryaman.csv', 'TSLA_quotedata_2023-11-10_frlocale_hicham.csv'];
const clock = manualClock('2025-01-07T02:30:00Z');
const overrides = { rate: RATE, snapshotRetentionBySymbol: { SPX: 500 } };

const chainsDir = tempDir('strikebook-backfill-chains-');
const lakeDir = join(tempDir('strikebook-backfill-lake-'), 'lake');
const targetDir = tempDir();
const badDir = tempDir('strikebook-backfill-badlake-');

async function status(t: TestApp): Promise<BackfillJobT | null> {
  return (await t.get<BackfillStatusT>('/v1/chains/backfill')).body.backfill;
}

async function start(t: TestApp, path: string) {
  return t.request({ method: 'POST', url: '/v1/chains/backfill', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ path }) });
}

async function backfilled(t: TestApp, path: string): Promise<BackfillJobT> {
  const started = await start(t, path);
  expect(started.statusCode, started.body).toBe(202);
  await t.ctx.backfill.settled();
  const job = await status(t);
  if (job === null) throw new Error('no backfill');
  return job;
}

/** Each stored snapshot's symbol, quote time and content digest, in quote time order. */
function digests(t: TestApp): Array<{ symbol: string; quote_time: string; digest: string }> {
  return t.ctx.db.prepare<[], { symbol: string; quote_time: string; digest: string }>('SELECT symbol, quote_time, digest FROM snapshots ORDER BY quote_time, symbol').all();
}

const symbols = [...new Set(CHAIN_TABLE.filter((f) => REAL.includes(f.file)).map((f) => f.symbol))];

afterAll(() => {
  for (const dir of [chainsDir, lakeDir, targetDir, badDir]) rmSync(dir, { recursive: true, force: true });
});

describe('POST /v1/chains/backfill of a Parquet lake', () => {
  let source: TestApp;
  const snapshotCount = REAL.length + SHIFTED;

  beforeAll(async () => {
    writeShiftedChains(join(chainsDir, 'small'), SHIFTED);
    mkdirSync(join(chainsDir, 'real'));
    for (const file of REAL) copyFileSync(join(CHAIN_FIXTURES, file), join(chainsDir, 'real', file));
    source = await buildTestApp({ clock, overrides });
    const job = await backfilled(source, chainsDir);
    expect(job.counts).toMatchObject({ files: snapshotCount, stored: snapshotCount, failed: 0, lakeFiles: 0 });
    const exported = exportLake(source.ctx.db, { out: lakeDir }, RATE);
    if (!exported.ok) throw new Error(JSON.stringify(exported.error));
    expect(exported.value.snapshots.written).toBe(snapshotCount);
  }, 240_000);

  afterAll(async () => {
    await source.close();
  });

  it('stores each snapshot once across an interruption, with the original digest and /gex; the chain files are then known', async () => {
    const first = await buildTestApp({ dataDir: targetDir, clock, overrides });
    expect((await start(first, lakeDir)).statusCode).toBe(202);
    // Interrupted once a few snapshots are stored (the server closes between two files).
    for (;;) {
      const job = await status(first);
      if (job !== null && job.state !== 'running') throw new Error(`the backfill ended before it was interrupted: ${JSON.stringify(job.counts)}`);
      if (job !== null && job.phase === 'importing' && job.counts.imported >= 8) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await first.close();

    const second = await buildTestApp({ dataDir: targetDir, clock, overrides });
    try {
      expect((await status(second))?.state, 'shown as interrupted after the restart').toBe('interrupted');
      const storedFirst = digests(second).length;
      expect(storedFirst).toBeGreaterThanOrEqual(8);
      expect(storedFirst).toBeLessThan(snapshotCount);

      const done = await backfilled(second, lakeDir);
      expect(done.state).toBe('done');
      // The lake: a contracts and a levels file per snapshot (no journal in the source: no transactions file).
      expect(done.counts.files).toBe(parquetFilesUnder(lakeDir).length);
      expect(done.counts).toMatchObject({ files: 2 * snapshotCount, lakeFiles: 2 * snapshotCount, lakeOther: snapshotCount, failed: 0, beyondRetention: 0 });
      expect(done.counts.alreadyStored, 'the lake files stored before the interruption are skipped by their bytes').toBe(storedFirst);
      expect(done.counts.stored).toBe(snapshotCount - storedFirst);

      // Every snapshot once, each with the original's content digest.
      expect(digests(second), 'the same snapshots, the same digests').toEqual(digests(source));
      for (const symbol of symbols) {
        const a = (await source.get<SnapshotsResponseT>(`/v1/snapshots?symbol=${symbol}`)).body.snapshots;
        const b = (await second.get<SnapshotsResponseT>(`/v1/snapshots?symbol=${symbol}`)).body.snapshots;
        expect(b.map(({ id: _id, ...rest }) => rest), symbol).toEqual(a.map(({ id: _id, ...rest }) => rest));
        // /gex of every real snapshot and of a few of the copies, in two scopes.
        const checked = a.filter((snap, index) => symbol !== 'SPX' || snap.contracts > 1000 || index % 10 === 0);
        for (const snap of checked) {
          const other = b[a.indexOf(snap)];
          for (const scope of ['', '&minDte=0&formula=per_1pct']) {
            const gexA = await source.get<GexResponseT>(`/v1/gex?symbol=${symbol}&snapshot=${snap.id}${scope}`);
            const gexB = await second.get<GexResponseT>(`/v1/gex?symbol=${symbol}&snapshot=${other?.id ?? 0}${scope}`);
            expect(gexA.status).toBe(200);
            expect(gexB.status).toBe(200);
            const strip = (body: GexResponseT) => ({ ...body, asOf: null, meta: { ...body.meta, snapshotId: null } });
            expect(strip(gexB.body), `${symbol} ${snap.quoteTime}${scope}`).toEqual(strip(gexA.body));
          }
        }
      }

      // The same history as chain files: recognised as stored (the same chain by content), nothing stored twice.
      const files = await backfilled(second, chainsDir);
      expect(files.counts).toMatchObject({ files: snapshotCount, stored: 0, alreadyStored: snapshotCount, failed: 0 });
      expect(digests(second)).toHaveLength(snapshotCount);
      // And the lake a third time: every file known by its bytes, nothing read.
      const again = await backfilled(second, lakeDir);
      expect(again.counts).toMatchObject({ stored: 0, toImport: 0, alreadyStored: snapshotCount, lakeOther: snapshotCount });
    } finally {
      await second.close();
    }
  }, 300_000);

  it('a foreign Parquet file and a cut lake file fail alone, each named with its reason', async () => {
    const contracts = parquetFilesUnder(join(lakeDir, 'contracts')).filter((path) => path.includes('symbol=TSLA'));
    const good = contracts[0] ?? '';
    copyFileSync(good, join(badDir, 'tsla.parquet'));
    const bytes = readFileSync(good);
    writeFileSync(join(badDir, 'cut.parquet'), bytes.subarray(0, Math.floor(bytes.byteLength / 2)));
    writeFileSync(join(badDir, 'foreign.parquet'), new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'price', data: [1.5, 2.5, 3.5], type: 'DOUBLE' }] })));
    const t = await buildTestApp({ clock, overrides });
    try {
      const job = await backfilled(t, badDir);
      expect(job.counts).toMatchObject({ files: 3, lakeFiles: 3, stored: 1, failed: 2 });
      const reasons = Object.fromEntries(job.failures.map((f) => [f.file, f.reason]));
      expect(Object.keys(reasons).sort()).toEqual(['cut.parquet', 'foreign.parquet']);
      expect(reasons['foreign.parquet']).toContain('not a Strikebook lake file');
      expect(reasons['cut.parquet']).toContain('not a readable Parquet file');
      expect((await t.get<SnapshotsResponseT>('/v1/snapshots?symbol=TSLA')).body.snapshots).toHaveLength(1);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('a journal imported first: levels at entry, marks and expiry evidence fill in after the lake backfill', async () => {
    const t = await buildTestApp({ clock, overrides });
    try {
      // Short options sold minutes after the real chains were quoted (SPY and SPX on 2023-09-14 16:31 New York, TSLA on
      // 2023-11-10 18:55), and one sold on a day no chain was quoted (its entry must stay unknown).
      const rows = [
        { date: '2023-09-14T16:40:00-04:00', symbol: 'SPY', underlying: 'SPY', expiration: '2023-09-15', strike: 440, right: 'P', price: 0.1 },
        { date: '2023-09-14T16:45:00-04:00', symbol: 'SPXW', underlying: 'SPX', expiration: '2023-09-15', strike: 4400, right: 'P', price: 0.9 },
        { date: '2023-11-10T19:00:00-05:00', symbol: 'TSLA', underlying: 'TSLA', expiration: '2023-11-17', strike: 250, right: 'C', price: 0.2 },
        { date: '2023-10-02T10:00:00-04:00', symbol: 'SPY', underlying: 'SPY', expiration: '2023-10-20', strike: 420, right: 'P', price: 0.5 },
      ];
      const posted = await t.request({
        method: 'POST',
        url: '/v1/journal/transactions',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ transactions: rows.map((row) => ({ account: 'Lake backfill test', type: 'SELL_TO_OPEN', quantity: 1, ...row })) }),
      });
      expect(posted.statusCode, posted.body).toBe(201);
      const withLevels = (trades: TradesResponseT['trades']) => trades.filter((trade) => trade.levelsAtEntry !== null).length;
      const before = (await t.get<TradesResponseT>('/v1/journal/trades')).body.trades;
      expect(before).toHaveLength(4);
      expect(withLevels(before), 'no snapshot yet: no levels at entry').toBe(0);
      const tslaAsOf = encodeURIComponent('2023-11-13T15:00:00-05:00');
      const marksBefore = (await t.get<PositionsResponseT>(`/v1/journal/positions?asOf=${tslaAsOf}`)).body;
      expect(marksBefore.positions.map((p) => p.mark)).toEqual([null]);
      const now = (await t.get<PositionsResponseT>('/v1/journal/positions')).body;
      expect(now.inferredExpirations).toEqual([]);
      expect(now.needsAttention.filter((n) => n.kind === 'expiry_unknown').map((n) => n.lastSnapshot)).toEqual([null, null, null, null]);

      const startedMs = performance.now();
      const job = await backfilled(t, lakeDir);
      const backfillMs = performance.now() - startedMs;
      expect(job.counts).toMatchObject({ stored: snapshotCount, failed: 0 });
      const refreshStartMs = performance.now();
      const after = (await t.get<TradesResponseT>('/v1/journal/trades')).body.trades;
      const refreshMs = performance.now() - refreshStartMs;
      console.log(`[lake backfill → journal] ${snapshotCount} snapshots in ${(backfillMs / 1000).toFixed(1)} s; trades with levels at entry ${withLevels(before)} → ${withLevels(after)} of ${after.length}; first /journal/trades after it ${refreshMs.toFixed(0)} ms`);

      // Levels at entry: the three sold after a chain of that day, each equal to /gex at its open; not the fourth.
      expect(withLevels(after)).toBe(3);
      for (const trade of after) {
        const row = rows.find((r) => Date.parse(r.date) === Date.parse(trade.openedAt ?? ''));
        if (row?.expiration === '2023-10-20') {
          expect(trade.levelsAtEntry, 'no chain quoted on its day: no entry figures').toBeNull();
          continue;
        }
        const gex = (await t.get<GexResponseT>(`/v1/gex?symbol=${row?.underlying ?? ''}&at=${encodeURIComponent(trade.openedAt ?? '')}&expirations=${row?.expiration ?? ''}`)).body;
        expect(trade.levelsAtEntry?.gammaFlip, trade.openedAt ?? '').toBe(gex.gammaInflection);
        expect(trade.levelsAtEntry?.callWall).toBe(gex.callWall?.strike ?? null);
        expect(trade.levelsAtEntry?.putWall).toBe(gex.putWall?.strike ?? null);
      }

      // Marks: the TSLA call on the Monday after its chain, at the mid of the chain's own row (bid 0.13, ask 0.14).
      const tslaRow = rawContracts(readChain('TSLA_quotedata_2023-11-10_frlocale_hicham.csv')).find((c) => c.expiration === '2023-11-17' && c.strike === 250 && c.right === 'C');
      expect([tslaRow?.bid, tslaRow?.ask]).toEqual([0.13, 0.14]);
      const marked = (await t.get<PositionsResponseT>(`/v1/journal/positions?asOf=${tslaAsOf}`)).body;
      expect(marked.positions).toHaveLength(1);
      expect(marked.positions[0]?.mark).toMatchObject({ price: 0.135, source: 'mid', quoteTime: '2023-11-10T23:55:00.000Z', ageDays: 1, stale: false });

      // Expiry evidence: the two 2023-09-15 puts expired out of the money at the chains quoted the evening before
      // (SPY 450.81 > 440, SPX 4505.10 > 4400); the others have no chain within a trading day of their expiry, but now
      // say their last one before it.
      const settled = (await t.get<PositionsResponseT>('/v1/journal/positions')).body;
      expect(settled.inferredExpirations.map((e) => [e.spot, e.quoteTime]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
        [450.81, '2023-09-14T20:31:00.000Z'],
        [4505.1001, '2023-09-14T20:31:00.000Z'],
      ]);
      const unknown = settled.needsAttention.filter((n) => n.kind === 'expiry_unknown');
      expect(unknown.map((n) => [n.underlying, n.lastSnapshot?.quoteTime, n.lastSnapshot?.outOfTheMoney]).sort()).toEqual([
        ['SPY', '2023-09-14T20:31:00.000Z', true],
        ['TSLA', '2023-11-10T23:55:00.000Z', true],
      ]);
    } finally {
      await t.close();
    }
  }, 120_000);
});
