import type { Database } from 'better-sqlite3';
import { DEFAULT_BACKUPS_KEPT } from './db/backups';
import { SettingsRepository } from './db/settings';
import type { WriteTx } from './db/writes';
import { NEW_YORK } from '../src-shared/zone';
import { POSITION_ALERT_DISTANCE_PCT } from '../src-shared/exposure/position-alerts';
import { originProblem } from './setting-rules';
import { DEFAULT_MANAGE_RULES, type ManageRules } from '../src-shared/journal/manage';
import { parseScheduleTime } from '../src-shared/refresh-schedule';

/** User settings, kept in the `settings` table as JSON values; defaults per docs/conventions.md §HTTP API, docs/exposure.md, docs/journal.md. */
export interface Settings {
  port: number;
  /** Risk-free rate r of the exposure engine. */
  rate: number;
  /** Journal time zone: trade days are calendar days here. */
  timeZone: string;
  reportingCurrency: string;
  /** A snapshot marks a position when quoted within this many New York trading days before asOf (docs/journal.md §Positions). */
  markMaxAgeDays: number;
  /** Exposure answer cache lifetime. */
  cacheSeconds: number;
  rateLimit: { perSecond: number; burst: number };
  /** Snapshots kept per symbol (the newest N), unless the symbol has its own number below. */
  snapshotRetention: number;
  /** Snapshots kept for particular symbols (upper case), e.g. `{SPX: 100}`. */
  snapshotRetentionBySymbol: Record<string, number>;
  /** Origins allowed by CORS; empty = no CORS headers. */
  corsOrigins: string[];
  onlineSource: { enabled: boolean; baseUrl: string; watchlist: string[]; intervalSeconds: number };
  /**
   * The online source's watchlist (the poller and POST /v1/chains/refresh) also holds the underlying of every open
   * position (docs/exposure.md §Refresh what you hold).
   */
  watchlistIncludesPositions: boolean;
  /** Time limit of reading and checking an uploaded file, from the moment its worker starts it (docs/decisions.md §Jobs). */
  importTimeoutSeconds: number;
  /** A dealer level within this % of a short strike alerts (docs/exposure.md §Events, "Alerts on your strikes"). */
  positionAlertDistancePct: number;
  /** The desktop app shows a system notification for each position alert. */
  notifyPositionAlerts: boolean;
  /** Backups of the journal kept in the data folder's backups/ (the newest N; db/backups.ts). */
  backupsKept: number;
  /** The management rules of GET /journal/manage and the Today page (docs/journal.md §Managing open trades). */
  manageRules: ManageRules;
  /**
   * A folder whose new chain files are stored as they arrive, then moved to imported/ or failed/ ('' = none;
   * docs/exposure.md §Chains that arrive by themselves).
   */
  watchFolder: string;
  /** New York times of day (`HH:MM`) the online source is fetched on trading days (a "Refresh now" pass each). */
  refreshSchedule: string[];
}

export const DEFAULT_SETTINGS: Settings = {
  port: 7717,
  rate: 0.04,
  timeZone: NEW_YORK,
  reportingCurrency: 'USD',
  markMaxAgeDays: 2,
  cacheSeconds: 60,
  rateLimit: { perSecond: 50, burst: 100 },
  snapshotRetention: 20,
  snapshotRetentionBySymbol: {},
  corsOrigins: [],
  onlineSource: { enabled: false, baseUrl: 'https://cdn.cboe.com/api/global/delayed_quotes/options', watchlist: ['SPX', 'SPY'], intervalSeconds: 300 },
  watchlistIncludesPositions: true,
  importTimeoutSeconds: 60,
  positionAlertDistancePct: POSITION_ALERT_DISTANCE_PCT,
  notifyPositionAlerts: true,
  backupsKept: DEFAULT_BACKUPS_KEPT,
  manageRules: DEFAULT_MANAGE_RULES,
  watchFolder: '',
  refreshSchedule: [],
};

export function loadSettings(db: Database, overrides: Partial<Settings> = {}): Settings {
  const stored: Record<string, unknown> = {};
  for (const row of new SettingsRepository(db).all()) {
    try {
      stored[row.key] = JSON.parse(row.value);
    } catch {
      // A value we cannot read falls back to its default rather than stopping the app.
    }
  }
  const settings: Settings = { ...DEFAULT_SETTINGS, ...(stored as Partial<Settings>), ...overrides };
  // Held to the rules of PUT /v1/settings when read back (a value written by an older version, or by hand): an origin
  // that breaks them is not listed, so the gate never answers it (issue 29: http://*.x.com was stored and used).
  // A rule added later takes its default in a stored object that lacks it.
  settings.manageRules = { ...DEFAULT_MANAGE_RULES, ...(typeof settings.manageRules === 'object' && settings.manageRules !== null ? settings.manageRules : {}) };
  settings.corsOrigins = Array.isArray(settings.corsOrigins) ? settings.corsOrigins.filter((origin) => typeof origin === 'string' && originProblem(origin) === null) : [];
  if (typeof settings.watchFolder !== 'string') settings.watchFolder = '';
  settings.refreshSchedule = Array.isArray(settings.refreshSchedule) ? settings.refreshSchedule.filter((time) => typeof time === 'string' && parseScheduleTime(time) !== null) : [];
  return settings;
}

/** Writes changed settings in the caller's transaction. */
export function saveSettings(turn: WriteTx, db: Database, changes: Partial<Settings>): void {
  new SettingsRepository(db).save(turn, Object.entries(changes).map(([key, value]) => ({ key, value: JSON.stringify(value) })));
}
