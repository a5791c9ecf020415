/**
 * The column form changes nothing a user reads (issue 32, item 2): the 12 real chains stored as the code before issue
 * 32 stored them (deflated JSON, its digest), their history and /gex answers read; converted by migration 017; read
 * again, cold: the same answers byte for byte (JSON spells every double exactly), the same digests, and every file
 * posted again is found to be stored already.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseChainFile } from '../../../../src-main/chains/index';
import { m017SnapshotColumns } from '../../../../src-main/db/migrations/017-snapshot-columns';
import { isColumnsPayload } from '../../../../src-main/db/snapshot-columns';
import { packContracts } from '../../../../src-main/db/snapshot-payload';
import { SnapshotRepository } from '../../../../src-main/db/snapshots';
import { writeNow } from '../../../../src-main/db/writes';
import { useTestApp } from '../../../helper';
import { chainFiles, readChain } from '../../../quotedata';

/** Scopes of /gex/history: the default (kept at ingest, here cold), counts, dte ranges, each formula. */
const SCOPES = ['', '&expirationsCount=2', '&expirationsCount=8&formula=per_1pct', '&minDte=1&maxDte=45&formula=per_1dollar', '&minDte=0&formula=per_1pct'];

describe('snapshots converted to the column form answer as before', () => {
  const t = useTestApp({ overrides: { cacheSeconds: 0, snapshotRetention: 100 } });

  it('on the 12 real chains: history and /gex the same to the byte, digests the same, a re-post found', async () => {
    expect(chainFiles).toHaveLength(12);
    const repository = new SnapshotRepository(t.ctx.db);
    const stored: Array<{ file: string; id: number; symbol: string; digest: string }> = [];
    writeNow(t.ctx.db, (turn) => {
      for (const file of chainFiles) {
        const parsed = parseChainFile(readChain(file), {});
        if (!parsed.ok) throw new Error(`${file} does not parse`);
        const { symbol, spot, source, contracts } = parsed.snapshot;
        // As an ingest heads it (compute.ts, planIngest): upper-case symbol, the instant spelled by toISOString.
        const quoteTime = new Date(Date.parse(parsed.snapshot.quoteTime)).toISOString();
        const payload = packContracts(contracts);
        const { id } = repository.insert(turn, { symbol, quoteTime, spot, source, contracts: contracts.length, expirations: new Set(contracts.map((c) => c.expiration)).size }, payload, '2026-01-01T00:00:00.000Z');
        // The digest as every version before the column form computed it, spelled out: SHA-256 of quote time, spot, JSON form.
        const digest = createHash('sha256').update(`${quoteTime}|${spot}|`).update(payload).digest('hex');
        stored.push({ file, id, symbol, digest });
      }
    });
    const rows = () => t.ctx.db.prepare<[], { id: number; digest: string; payload: Buffer }>('SELECT id, digest, payload FROM snapshots ORDER BY id').all();
    expect(rows().map((row) => row.digest)).toEqual(stored.map((s) => s.digest));
    expect(rows().some((row) => isColumnsPayload(row.payload)), 'stored in the JSON form').toBe(false);

    const symbols = [...new Set(stored.map((s) => s.symbol))].sort();
    const urls: string[] = [];
    const read = async () => {
      urls.length = 0;
      const bodies: string[] = [];
      for (const symbol of symbols) {
        for (const scope of SCOPES) {
          const history = await t.request(`/v1/gex/history?symbol=${symbol}${scope}`);
          expect(history.statusCode, `${symbol}${scope}: ${history.body.slice(0, 200)}`).toBe(200);
          urls.push(`history ${symbol}${scope}`);
          bodies.push(history.body);
        }
      }
      for (const { id, symbol } of stored) {
        for (const url of [`/v1/gex?symbol=${symbol}&snapshot=${id}`, `/v1/gex?symbol=${symbol}&snapshot=${id}&minDte=0&formula=per_1pct`, `/v1/expirations?symbol=${symbol}&snapshot=${id}`]) {
          const answer = await t.request(url);
          expect(answer.statusCode, `${url}: ${answer.body.slice(0, 200)}`).toBe(200);
          urls.push(url);
          // Everything but the instant of the answer itself.
          bodies.push(answer.body.replace(/"asOf":"[^"]*"/, '"asOf":null'));
        }
      }
      return bodies;
    };
    const before = await read();
    const pointsBefore = before.slice(0, symbols.length * SCOPES.length).reduce((sum, body) => sum + (JSON.parse(body) as { points: unknown[] }).points.length, 0);
    expect(pointsBefore, 'every snapshot has a point in every scope').toBe(stored.length * SCOPES.length);

    writeNow(t.ctx.db, () => {
      t.ctx.db.transaction(() => m017SnapshotColumns.up(t.ctx.db))();
      // Cold again: every point computed from the converted payloads.
      t.ctx.db.prepare('DELETE FROM gex_history').run();
    });
    expect(rows().every((row) => isColumnsPayload(row.payload)), 'every payload in the column form').toBe(true);
    expect(rows().map((row) => row.digest), 'the digests kept').toEqual(stored.map((s) => s.digest));
    const computed = t.ctx.exposure.historyPool.computed;
    const after = await read();
    expect(t.ctx.exposure.historyPool.computed - computed, 'computed again, from the column form').toBe(pointsBefore);
    expect(after).toHaveLength(before.length);
    // Compared as text (the bodies are 100 KB: a diff would say nothing more than which one).
    after.forEach((body, index) => expect(body === before[index], `${urls[index] ?? index} the same`).toBe(true));

    for (const { file, id } of stored) {
      const again = await t.ctx.exposure.ingest({ file: readChain(file), options: {} });
      expect(again.ok && { id: again.value.id, stored: again.value.stored }, `${file} posted again`).toEqual({ id, stored: false });
    }
    expect(rows()).toHaveLength(stored.length);
  }, 300_000);
});
