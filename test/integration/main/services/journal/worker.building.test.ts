/**
 * Reads during a build (docs/journal.md §Reads during a build), through loopback HTTP, the real journal worker and a
 * real SQLite file: after an import in the middle of a large generated journal, the worker rebuilds the ledger and the
 * trades a piece at a time; reads that arrive meanwhile answer at once from the previous version, saying
 * `building: true`, with exactly its figures (those of a fresh service over the old rows), and once the build is done
 * `building: false` with the figures of a fresh service over the new rows. A write sent during a build waits for it
 * and starts the next; no answer is ever of a half-built version. The first build after a start has no previous
 * version: its reads wait for it. No clock is read: which version answered is told by the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticTransactions } from '../../../../../src-shared/demo/journal';
import type { ImportedTransaction } from '../../../../../src-shared/journal/model';
import { toGenericCsv } from '../../../../../bench/journal';
import { systemClock } from '../../../../../src-main/clock';
import { openDatabase } from '../../../../../src-main/db/open';
import { writeNow } from '../../../../../src-main/db/writes';
import { startServer, type RunningServer } from '../../../../../src-main/serve';
import { JournalService } from '../../../../../src-main/services/journal/service';
import { DEFAULT_SETTINGS } from '../../../../../src-main/settings';
import { journalAnswer } from '../../../../../src-main/server/route-kit';
import { presentYear } from '../../../../../src-main/server/presenters/journal';
import { presentPositions } from '../../../../../src-main/server/presenters/book';
import { presentTrades } from '../../../../../src-main/server/presenters/trades';
import { tempDir } from '../../../../helper';

const COUNT = 40_000;
const MIDDLE = 600;

/** The generated rows split at a day boundary in the middle: `head` the journal, `tail` whole days imported into it later. */
function split(): { head: ImportedTransaction[]; tail: ImportedTransaction[] } {
  const rows = syntheticTransactions(COUNT + MIDDLE, 21).sort((a, b) => (a.tradeDate < b.tradeDate ? -1 : a.tradeDate > b.tradeDate ? 1 : 0));
  const dayOf = (row: ImportedTransaction | undefined) => row?.tradeDate.slice(0, 10) ?? '';
  let start = Math.floor(rows.length / 2);
  while (start > 0 && dayOf(rows[start - 1]) === dayOf(rows[start])) start -= 1;
  let end = start + MIDDLE;
  while (end < rows.length && dayOf(rows[end - 1]) === dayOf(rows[end])) end += 1;
  return { head: [...rows.slice(0, start), ...rows.slice(end)], tail: rows.slice(start, end) };
}

type Figures = { summary: unknown; positions: unknown; trades: unknown };

/** What the three reads answer, as JSON, without `building` (the figures of one version). */
function figuresOf(summary: Record<string, unknown>, positions: Record<string, unknown>, trades: Record<string, unknown>): Figures {
  const without = (body: Record<string, unknown>) => {
    // The accounts as the wire's schema keeps them (id and name).
    const { building: _building, accounts, ...rest } = body;
    (rest as Record<string, unknown>).accounts = (accounts as Array<{ id: string; name: string }>).map(({ id, name }) => ({ id, name }));
    return JSON.parse(JSON.stringify(rest)) as unknown;
  };
  return { summary: without(summary), positions: (without(positions) as { positions: unknown }).positions, trades: without(trades) };
}

describe('journal reads during a build', () => {
  const { head, tail } = split();
  const year = Number(tail[0]?.tradeDate.slice(0, 4));
  const expected: { before: Figures; after: Figures } = { before: { summary: null, positions: null, trades: null }, after: { summary: null, positions: null, trades: null } };
  const dataDir = tempDir();
  let server: RunningServer | null = null;

  beforeAll(async () => {
    // A fresh service in this process over the old rows, then the new ones: each version's figures, no worker involved.
    const { db } = openDatabase(':memory:');
    const fresh = new JournalService(db, () => DEFAULT_SETTINGS, systemClock);
    const figures = (): Figures => {
      const summary = fresh.summary(year);
      const positions = fresh.positions({});
      const trades = fresh.trades.trades({});
      return figuresOf(journalAnswer(summary, presentYear), journalAnswer(positions, presentPositions), journalAnswer(trades, presentTrades));
    };
    if (!writeNow(db, (turn) => fresh.importFile(turn, { text: toGenericCsv(head), broker: 'generic' })).ok) throw new Error('the journal was refused');
    expected.before = figures();
    if (!writeNow(db, (turn) => fresh.importFile(turn, { text: toGenericCsv(tail), broker: 'generic' })).ok) throw new Error('the rows were refused');
    expected.after = figures();
    db.close();
    // The journal of the old rows on file, then a server started on it: its first build has no previous version.
    const first = await startServer({ dataDir, port: 0, uiDir: null, overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 } } });
    const response = await fetch(`${first.apiBaseUrl}/imports?broker=generic`, { method: 'POST', headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'text/csv' }, body: toGenericCsv(head) });
    expect(response.status).toBe(201);
    await first.close();
    server = await startServer({ dataDir, port: 0, uiDir: null, overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 } } });
  }, 600_000);

  afterAll(async () => {
    await server?.close();
  });

  const running = (): RunningServer => {
    if (server === null) throw new Error('no server');
    return server;
  };
  const get = async (path: string): Promise<Record<string, unknown>> => {
    const response = await fetch(`${running().apiBaseUrl}${path}`, { headers: { authorization: `Bearer ${running().apiKey}` } });
    expect(response.status, path).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  };
  /** The three reads sent together (answered in the worker one after another: one version, or the build ended between). */
  const read = async (): Promise<{ building: boolean[]; figures: Figures }> => {
    const [summary, positions, trades] = await Promise.all([get(`/journal/summary?year=${year}`), get('/journal/positions'), get('/journal/trades')]);
    return { building: [summary, positions, trades].map((body) => body.building === true), figures: figuresOf(summary, positions, trades) };
  };
  const write = async (method: string, path: string, body?: string) => {
    const response = await fetch(`${running().apiBaseUrl}${path}`, { method, headers: { authorization: `Bearer ${running().apiKey}`, ...(body === undefined ? {} : { 'content-type': 'text/csv' }) }, ...(body === undefined ? {} : { body }) });
    return { status: response.status, body: (await response.json()) as { id?: number } };
  };

  it('the first build after a start waits: building false, the figures of the rows on file', async () => {
    const first = await read();
    expect(first.building).toEqual([false, false, false]);
    expect(first.figures).toEqual(expected.before);
  }, 600_000);

  it('a read during a rebuild after an import in the middle answers at once from the previous version; after it, the new one', async () => {
    // The import's own answer waits for the build (its report names the closes its rows brought: read from the new
    // version); reads sent meanwhile by others answer at once. Read until one comes while the build is under way.
    const importing = write('POST', '/imports?broker=generic', toGenericCsv(tail));
    let importDone = false;
    void importing.then(() => {
      importDone = true;
    });
    let during = await read();
    while (!during.building.some(Boolean) && !importDone) {
      // Before the rows are stored (the file is parsed): the old version, built whole.
      expect(during.figures).toEqual(expected.before);
      during = await read();
    }
    expect(during.building, 'the reads came while the build was under way').toEqual([true, true, true]);
    expect(during.figures).toEqual(expected.before);
    const imported = await importing;
    expect(imported.status).toBe(201);
    // The writer reads its own change: the import answered once its build was done.
    const afterImport = await read();
    expect(afterImport.building, 'the import answered after its build').toEqual([false, false, false]);
    expect(afterImport.figures).toEqual(expected.after);

    // A write during a build: the import undone (a rebuild from the middle starts), the same rows imported again while it
    // is under way. The import waits for the build, then starts the next; every answer meanwhile is one whole version.
    const undoing = write('DELETE', `/imports/${String(imported.body.id)}`);
    let undoDone = false;
    void undoing.then(() => {
      undoDone = true;
    });
    let whileBuilding = await read();
    while (!whileBuilding.building.some(Boolean) && !undoDone) {
      expect(whileBuilding.figures).toEqual(expected.after);
      whileBuilding = await read();
    }
    expect(whileBuilding.building, 'the undo\'s rebuild was under way').toEqual([true, true, true]);
    expect(whileBuilding.figures).toEqual(expected.after);
    const again = write('POST', '/imports?broker=generic', toGenericCsv(tail));
    let done = false;
    void again.then(() => {
      done = true;
    });
    const versions: Figures[] = [];
    let last = whileBuilding;
    for (let n = 0; n < 100_000 && (!done || last.building.some(Boolean)); n += 1) {
      versions.push(last.figures);
      last = await read();
    }
    expect((await undoing).status).toBe(200);
    expect((await again).status).toBe(201);
    for (const figures of versions) expect([expected.before, expected.after]).toContainEqual(figures);
    expect(last.building).toEqual([false, false, false]);
    expect(last.figures).toEqual(expected.after);
  }, 600_000);
});
