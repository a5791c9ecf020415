import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock';
import type { Settings } from '../settings';
import type { KeyStore } from './keys';
import type { JournalApi } from '../services/journal/client';
import type { ExposureService } from '../services/exposure/service';
import type { ExportJobs } from '../services/exports';
import type { PositionAlerts } from '../services/exposure/position-alerts';
import type { ImportFormatsService } from '../services/journal/import-formats';
import type { ChainRefresh } from '../services/chain-refresh';
import type { Backups } from '../services/backups';
import type { SourceHealth } from '../services/source-health';
import type { WatchFolder } from '../services/watch-folder';
import type { ChainBackfill } from '../services/chain-backfill';
import type { RefreshSchedule } from '../services/refresh-schedule';

/** Everything a route needs; built once by `createContext` (src-main/context.ts) and closed with it. */
export interface AppContext {
  version: string;
  dataDir: string;
  /** "Now" for the services and the server (tests set it). */
  clock: Clock;
  db: Database;
  settings: Settings;
  keys: KeyStore;
  /** The journal, answered by its worker thread (imports, undo and the ledger never run on the event loop). */
  journal: JournalApi;
  exposure: ExposureService;
  /** Position events of each new snapshot (services/exposure/position-alerts.ts); `idle()` resolves when all are evaluated. */
  positionAlerts: Pick<PositionAlerts, 'idle' | 'createdFor'>;
  /** The saved import formats (the Import page's mapping step). */
  importFormats: ImportFormatsService;
  /** Research exports (the Parquet lake), each in a lake worker thread of its own. */
  exports: ExportJobs;
  /** "Refresh now": one pass of the online source over the watchlist and the open positions' underlyings. */
  refresh: ChainRefresh;
  /** Backups of the journal: daily, before an undo or a delete, when asked; a restore staged for the next start. */
  backups: Backups;
  /** Whether the online source answers (the poller, Refresh now and the schedule tell it; the status line reads it). */
  sourceHealth: SourceHealth;
  /** The watch folder (its timer starts with the server: serve.ts). */
  watchFolder: WatchFolder;
  /** Backfills of folders of historical chain files, one at a time. */
  backfill: ChainBackfill;
  /** The online source at the times of refreshSchedule (its timer starts with the server). */
  schedule: RefreshSchedule;
  /** Path of the plaintext key file for the user's scripts. */
  keyFilePath: string;
  demo: boolean;
  /** Replaces the key of the key file (Settings → rotate): resolves to the new key. */
  rotateKey(): Promise<string>;
  updateSettings(changes: Partial<Settings>): Promise<Settings>;
}
