import type { Database } from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock, type Clock } from './clock';
import { applyPendingRestore } from './db/backups';
import { claimServerPid, databaseFiles, prepareDataFolder, isPermissionError, refuseSymlinks, releaseServerPid, writeProblem } from './db/data-folder';
import { openDatabase, pageCount, SERVER_CACHE_KIB, setBusyTimeout, setCacheSize, setMaxPages } from './db/open';
import { isDatabaseBusy, WriteQueue } from './db/writes';
import type { AppContext } from './server/context';
import { ensureKeyFile, KeyStore } from './server/keys';
import { KEY_FILE, stageKeyFile, type StagedKeyFile } from './server/key-file';
import { ExposureService } from './services/exposure/service';
import { ExportJobs } from './services/exports';
import { ChainRefresh } from './services/chain-refresh';
import { Backups } from './services/backups';
import { ImportFormatsService } from './services/journal/import-formats';
import { createJournalClient } from './services/journal/client';
import { loadSettings, saveSettings, type Settings } from './settings';
import { PositionAlerts } from './services/exposure/position-alerts';
import { SourceHealth } from './services/source-health';
import { WatchFolder } from './services/watch-folder';
import { ChainBackfill } from './services/chain-backfill';
import { RefreshSchedule } from './services/refresh-schedule';

export const DB_FILE = 'strikebook.db';
/** How often the last-used stamps of keys are written; a busy database leaves them for the next time. */
export const KEY_USAGE_FLUSH_MS = 30_000;
/** Start-up may wait this long for another process's lock (nothing is served yet); see OpenOptions.busyTimeoutMs. */
const START_BUSY_TIMEOUT_MS = 5000;

export interface ContextOptions {
  dataDir: string;
  demo?: boolean;
  /** Settings that win over the stored ones for this run (tests, --port). Not saved. */
  overrides?: Partial<Settings>;
  nativeBinding?: string;
  /** Interval of the key-usage flush (default KEY_USAGE_FLUSH_MS; the busy-database test shortens it). */
  keyUsageFlushMs?: number;
  /** "Now" for everything the server does (default the system's; tests set their own). */
  clock?: Clock;
  log?: (line: string) => void;
  /**
   * How many pages the database may grow to beyond its size at the start, on every connection of the process: tests
   * simulate a full disk with it (SQLite then answers SQLITE_FULL, as it does on a full disk). Never set by the app.
   */
  extraPages?: number;
  /** Journals smaller than this are backed up on the event loop's thread (services/backups.ts; tests set 0). */
  backupInlineBelowBytes?: number;
}

export interface OwnedContext extends AppContext {
  /**
   * The process's write turns: a write on `db` goes through `writes.run(...)`, so it never meets the journal worker's
   * lock, and a busy database is retried asynchronously, then answered 503. The services that write hold it (they
   * are given it here); routes never take a turn themselves.
   */
  writes: WriteQueue;
  apiKey: string;
  backupPath: string | null;
  /**
   * Stops the uploads being parsed (the server is closing, docs/decisions.md §Jobs): their requests are answered at
   * once, so closing the HTTP server does not wait for a parse.
   */
  stopJobs(): void;
  /** Ends the journal worker, writes the pending key-usage stamps and closes the database. */
  close(): Promise<void>;
}

/** The data folder opened on this thread: database (checked, migrated), settings, keys and the key file. */
export interface DataFolder {
  dataDir: string;
  dbPath: string;
  db: Database;
  settings: Settings;
  keys: KeyStore;
  keyFilePath: string;
  apiKey: string;
  backupPath: string | null;
}

export function appVersion(): string {
  // From the sources (src-main/) or the bundle (out/node/), package.json is one or two folders up.
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8'));
      if (typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === 'strikebook' && 'version' in pkg && typeof pkg.version === 'string' && pkg.version !== '') return pkg.version;
    } catch {
      // Not there: try the next candidate.
    }
  }
  return '0.0.0';
}

/**
 * Opens the data folder: creates it (0700) or checks that it is writable, checks and opens the database, loads the
 * settings and the keys, and makes sure the key file holds a valid key. Problems a person must fix come out as a
 * DataFolderError (see db/data-folder.ts). `busyTimeoutMs` is the connection's wait for a lock once open: 0 for the
 * server (its event loop never waits), longer for the CLI.
 */
export function openDataFolder(options: { dataDir: string; overrides?: Partial<Settings>; nativeBinding?: string; busyTimeoutMs: number; clock?: Clock }): DataFolder {
  prepareDataFolder(options.dataDir);
  const dbPath = join(options.dataDir, DB_FILE);
  // Every file of the folder that is opened or changed, checked before anything is: a link is refused, not followed.
  refuseSymlinks([...databaseFiles(dbPath), join(options.dataDir, KEY_FILE)]);
  const { db, backupPath } = openDatabase(dbPath, { busyTimeoutMs: START_BUSY_TIMEOUT_MS, ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }) });
  try {
    const settings = loadSettings(db, options.overrides ?? {});
    const keys = new KeyStore(db, options.clock ?? systemClock);
    const keyFile = ensureKeyFile(keys, options.dataDir);
    setBusyTimeout(db, options.busyTimeoutMs);
    return { dataDir: options.dataDir, dbPath, db, settings, keys, keyFilePath: keyFile.path, apiKey: keyFile.key, backupPath };
  } catch (error) {
    db.close();
    throw isPermissionError(error) ? writeProblem(dbPath, error) : error;
  }
}

/**
 * The server's context: the data folder on this thread (keys, settings, snapshots: small, quick writes) and the
 * journal in its worker thread. All writes of the process take turns through one WriteQueue.
 */
export function createContext(options: ContextOptions): OwnedContext {
  const clock = options.clock ?? systemClock;
  // A restore asked for in the app (Settings → Backups) is put in place before the journal is opened (db/backups.ts).
  const restored = applyPendingRestore(options.dataDir, join(options.dataDir, DB_FILE), clock.nowMs(), options.nativeBinding);
  if (restored !== null) {
    options.log?.(restored.result.ok ? `Restored the backup ${restored.name} (schema version ${restored.result.report.schemaVersion}).` : `The backup ${restored.name} was not restored: ${restored.result.problem}`);
  }
  const folder = openDataFolder({
    dataDir: options.dataDir,
    busyTimeoutMs: 0,
    clock,
    ...(options.overrides ? { overrides: options.overrides } : {}),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  const { db, keys } = folder;
  setCacheSize(db, SERVER_CACHE_KIB);
  const maxPages = options.extraPages === undefined ? undefined : pageCount(db) + options.extraPages;
  if (maxPages !== undefined) setMaxPages(db, maxPages);
  const overrides = options.overrides ?? {};
  let settings = folder.settings;
  const getSettings = () => settings;
  const writes = new WriteQueue(db);
  const journal = createJournalClient({
    dbPath: folder.dbPath,
    writes,
    settings: getSettings,
    timeoutSeconds: () => settings.importTimeoutSeconds,
    clock,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(maxPages === undefined ? {} : { maxPages }),
  });
  const exposure = new ExposureService(db, getSettings, clock, writes, options.log);
  const positionAlerts = new PositionAlerts({ db, exposure, journal, writes, settings: getSettings, clock, ...(options.log ? { log: options.log } : {}) });
  const exports = new ExportJobs({
    db,
    dbPath: folder.dbPath,
    dataDir: options.dataDir,
    rate: () => settings.rate,
    clock,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const backups = new Backups({
    dbPath: folder.dbPath,
    dataDir: options.dataDir,
    settings: getSettings,
    clock,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.backupInlineBelowBytes === undefined ? {} : { inlineBelowBytes: options.backupInlineBelowBytes }),
  });
  // This process serves the data folder: `strikebook restore` refuses to replace the journal under it.
  claimServerPid(options.dataDir);
  writes.onRollback(() => exposure.reset());
  const sourceHealth = new SourceHealth(clock, options.log);
  // Settings are replaced on every change (updateSettings): each pass reads the current ones.
  const refresh = new ChainRefresh(
    {
      get settings() {
        return settings;
      },
      clock,
      exposure,
      journal,
      sourceHealth,
    },
    options.log,
  );
  // Chains that arrive by themselves (issue 30): built here, their timers started with the server (serve.ts).
  const watchFolder = new WatchFolder(
    {
      get settings() {
        return settings;
      },
      dataDir: options.dataDir,
      clock,
      exposure,
      writes,
      db,
    },
    options.log,
  );
  const backfill = new ChainBackfill(
    {
      get settings() {
        return settings;
      },
      db,
      writes,
      exposure,
      clock,
      dataDir: options.dataDir,
    },
    options.log,
  );
  const schedule = new RefreshSchedule(
    {
      get settings() {
        return settings;
      },
      clock,
      refresh,
      sourceHealth,
    },
    options.log,
  );

  // A background write: when another process holds the lock it fails fast, and the stamps wait for the next tick.
  const flushUsage = () =>
    writes.run((turn) => keys.flushUsage(turn), 0).catch((error: unknown) => {
      if (!isDatabaseBusy(error)) options.log?.(`[keys] usage flush failed: ${String(error)}`);
    });
  const usageTimer = setInterval(() => void flushUsage(), options.keyUsageFlushMs ?? KEY_USAGE_FLUSH_MS);
  usageTimer.unref();
  let closed = false;

  const ctx: OwnedContext = {
    version: appVersion(),
    dataDir: options.dataDir,
    clock,
    db,
    get settings() {
      return settings;
    },
    keys,
    journal,
    exposure,
    positionAlerts,
    importFormats: new ImportFormatsService(db, clock, writes),
    exports,
    refresh,
    backups,
    sourceHealth,
    watchFolder,
    backfill,
    schedule,
    writes,
    keyFilePath: folder.keyFilePath,
    apiKey: folder.apiKey,
    backupPath: folder.backupPath,
    demo: options.demo === true,
    async rotateKey() {
      // docs/decisions.md §API, "Key rotation": the new file is put in place inside the transaction, before it
      // commits; the keys in memory change only after the commit; a failure anywhere puts the old file back.
      const file: { staged?: StagedKeyFile } = {};
      let rotated: { key: string };
      try {
        rotated = await writes.run((turn) =>
          keys.rotate(turn, keys.verify(ctx.apiKey), 'default (rotated)', (key) => {
            file.staged = stageKeyFile(ctx.keyFilePath, key);
            file.staged.install();
          }),
        );
      } catch (error) {
        file.staged?.undo();
        throw error;
      }
      file.staged?.finish();
      keys.reload();
      ctx.apiKey = rotated.key;
      return rotated.key;
    },
    updateSettings(changes) {
      // Applied at once when no other write runs, so the new values are visible as soon as this returns; in memory
      // only once the transaction committed (a full disk may fail the COMMIT itself).
      return writes
        .run(
          (turn) => {
            saveSettings(turn, db, changes);
            return loadSettings(db, overrides);
          },
          undefined,
          (updated) => {
            settings = updated;
            if (changes.rate !== undefined) exposure.reset();
          },
        )
        .then(async (updated) => {
          if (changes.timeZone !== undefined) await journal.redate(updated.timeZone);
          else if (changes.reportingCurrency !== undefined) await journal.invalidate();
          return updated;
        });
    },
    stopJobs() {
      journal.stopJobs();
      exposure.stopJobs();
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(usageTimer);
      await Promise.all([schedule.stop(), watchFolder.stop(), backfill.stop()]);
      await refresh.stop();
      journal.stopJobs();
      exposure.stopJobs();
      await flushUsage();
      await positionAlerts.close();
      await journal.close();
      await exposure.close();
      await exports.close();
      await backups.close();
      db.close();
      releaseServerPid(options.dataDir);
    },
  };
  return ctx;
}
