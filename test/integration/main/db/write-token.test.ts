/**
 * A function that writes says so (docs/architecture.md, "How to take a write turn"): it takes the write token
 * (`WriteTx`) as its first parameter, and only db/writes.ts hands one out, to the callback of a write turn. The
 * `@ts-expect-error` lines below are the test that matters: `npm run typecheck` compiles this file and fails if any
 * of those calls without a token (or the forged token) ever compiles. The runtime half checks that each way of
 * taking a turn hands the token over and that what was written with it is stored.
 */
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src-main/db/open';
import { SettingsRepository } from '../../../../src-main/db/settings';
import { SnapshotRepository } from '../../../../src-main/db/snapshots';
import { WriteQueue, writeNow, writeTransaction, type WriteTx } from '../../../../src-main/db/writes';
import type { ExposureService } from '../../../../src-main/services/exposure/service';
import type { JournalService } from '../../../../src-main/services/journal/service';
import type { KeyStore } from '../../../../src-main/server/keys';
import { saveSettings } from '../../../../src-main/settings';
import type { ChainSnapshot } from '../../../../src-shared/exposure/model';
import { tempDir } from '../../../paths';

/** Never called: its body is for the compiler, each line a write that a caller without a turn must not make. */
export function writesWithoutATurn(db: Database, exposure: ExposureService, journal: JournalService, keys: KeyStore, snapshot: ChainSnapshot): void {
  // @ts-expect-error a repository's write takes the token first
  new SettingsRepository(db).save([{ key: 'rate', value: '0.05' }]);
  // @ts-expect-error a repository's write takes the token first
  new SnapshotRepository(db).prune('SPX', 1);
  // @ts-expect-error the in-transaction ingest is for a caller that holds a turn
  exposure.ingestInTurn(snapshot);
  // @ts-expect-error the journal's writes run in their caller's transaction (the worker's writeTransaction)
  journal.undoImport(1);
  // @ts-expect-error the key-usage flush writes in its caller's turn
  keys.flushUsage();
  // @ts-expect-error settings are saved in the caller's turn
  saveSettings(db, { rate: 0.05 });
  // @ts-expect-error a token cannot be made outside db/writes.ts: its brand's symbol is not exported
  const forged: WriteTx = {};
  void forged;
}

const opened: Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function database(): Database {
  const { db } = openDatabase(join(tempDir(), 'strikebook.db'));
  opened.push(db);
  return db;
}

describe('the write token', () => {
  it('is handed to the callback of every way of taking a turn, and what is written with it is stored', async () => {
    const db = database();
    const settings = new SettingsRepository(db);
    const queue = new WriteQueue(db);
    const seen: WriteTx[] = [];
    await queue.run((turn) => {
      seen.push(turn);
      settings.save(turn, [{ key: 'a', value: '1' }]);
    });
    await queue.exclusive((deadlineMs) =>
      queue.transaction((turn) => {
        seen.push(turn);
        settings.save(turn, [{ key: 'b', value: '2' }]);
      }, deadlineMs),
    );
    await writeTransaction(
      db,
      (turn) => {
        seen.push(turn);
        settings.save(turn, [{ key: 'c', value: '3' }]);
      },
      Date.now() + 1000,
    );
    writeNow(db, (turn) => {
      seen.push(turn);
      settings.save(turn, [{ key: 'd', value: '4' }]);
    });
    expect(await queue.background((turn) => settings.save(turn, [{ key: 'e', value: '5' }]))).toBe(true);
    expect(seen).toHaveLength(4);
    expect(seen.every((turn) => typeof turn === 'object' && Object.isFrozen(turn))).toBe(true);
    expect(Object.fromEntries(settings.all().map((row) => [row.key, row.value]))).toMatchObject({ a: '1', b: '2', c: '3', d: '4', e: '5' });
    expect(db.inTransaction, 'every turn committed').toBe(false);
    expect(typeof writesWithoutATurn).toBe('function');
  });
});
