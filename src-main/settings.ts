import type { Database } from 'better-sqlite3';
import { DEFAULT_BACKUPS_KEPT } from './db/backups';
import { SettingsRepository } from './db/settings';
import type { WriteTx } from './db/writes';
import { NEW_YORK } from '../src-shared/zone';
import { POSITION_ALERT_DISTANCE_PCT } from '../src-shared/exposure/position-alerts';
import { originProblem } from './setting-rules';
import { DEFAULT_MANAGE_RULES, type ManageRules } from '../src-shared/journal/manage';
import { parseScheduleTime } from '../src-shared/refresh-schedule';
import { Compile } from 'typebox/compile';
import { SettingsSchema } from '../src-shared/api/schemas';

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

/** A stored setting that did not match its schema: it was read as its default. */
export interface SettingProblem {
  key: keyof Settings;
  /** The stored text, cut to 200 characters. */
  stored: string;
  reason: string;
}

/** The schema of each stored setting (the API's: PUT /v1/settings writes through it), compiled once. */
const settingChecks = new Map(Object.entries(SettingsSchema.properties).filter(([key]) => key !== 'dataDir').map(([key, schema]) => [key, Compile(schema)]));

function isSettingKey(key: string): key is keyof Settings {
  return Object.prototype.hasOwnProperty.call(DEFAULT_SETTINGS, key);
}

/** By default a setting read as its default is reported on the process's warnings (stderr of the app and the CLI). */
function warnSetting(problem: SettingProblem): void {
  process.emitWarning(`The stored setting ${problem.key} (${problem.stored}) ${problem.reason}: its default is used until it is saved again.`, { code: 'STRIKEBOOK_SETTING' });
}

/**
 * The settings: each stored value read through its schema (src-shared/api/schemas.ts, SettingsSchema), so that a
 * value written by an older version or by hand that does not match it is reported and read as its default, never
 * used as the type says it is; `overrides` (the CLI's, tests') are taken as they are.
 */
export function loadSettings(db: Database, overrides: Partial<Settings> = {}, report: (problem: SettingProblem) => void = warnSetting): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const assign = <K extends keyof Settings>(key: K, value: Settings[K]) => {
    settings[key] = value;
  };
  for (const row of new SettingsRepository(db).all()) {
    // A key this version does not know (a setting removed) is left alone.
    if (!isSettingKey(row.key)) continue;
    const key = row.key;
    const stored = row.value.length > 200 ? `${row.value.slice(0, 200)}…` : row.value;
    let value: unknown;
    try {
      value = JSON.parse(row.value);
    } catch {
      report({ key, stored, reason: 'is not JSON' });
      continue;
    }
    const checked = readStored(key, value);
    if (checked.ok) assign(key, checked.value);
    else report({ key, stored, reason: checked.reason });
  }
  return { ...settings, ...overrides };
}

/**
 * One stored value through its schema. Before the check, what the rules of PUT /v1/settings let through item by item
 * is kept item by item (issue 29: an origin like http://*.x.com was stored and used: it is not listed, the others
 * are), and a rule added to manageRules later takes its default in a stored object that lacks it.
 */
function readStored<K extends keyof Settings>(key: K, value: unknown): { ok: true; value: Settings[K] } | { ok: false; reason: string } {
  let candidate = value;
  if (key === 'corsOrigins' && Array.isArray(value)) candidate = value.filter((origin) => typeof origin === 'string' && originProblem(origin) === null);
  if (key === 'refreshSchedule' && Array.isArray(value)) candidate = value.filter((time) => typeof time === 'string' && parseScheduleTime(time) !== null);
  if (key === 'manageRules' && typeof value === 'object' && value !== null && !Array.isArray(value)) candidate = { ...DEFAULT_MANAGE_RULES, ...value };
  const check = settingChecks.get(key);
  if (check === undefined) return { ok: false, reason: 'has no schema' };
  if (check.Check(candidate)) return { ok: true, value: candidate as Settings[K] };
  const first = check.Errors(candidate)[0];
  return { ok: false, reason: `does not match its schema${first === undefined ? '' : ` (${first.instancePath === '' ? '' : `${first.instancePath}: `}${first.message})`}` };
}

/**
 * Writes changed settings in the caller's transaction. A value its schema refuses throws (naming the key) instead of
 * being stored: loadSettings would read it as its default, so the write would look done and change nothing (PUT
 * /v1/settings checks first; this guards every other caller, the CLI's and the bench's).
 */
export function saveSettings(turn: WriteTx, db: Database, changes: Partial<Settings>): void {
  for (const [key, value] of Object.entries(changes)) {
    if (!isSettingKey(key)) throw new RangeError(`saveSettings: ${key} is not a setting`);
    const checked = readStored(key, value);
    if (!checked.ok) throw new RangeError(`saveSettings: ${key} ${checked.reason}`);
  }
  new SettingsRepository(db).save(turn, Object.entries(changes).map(([key, value]) => ({ key, value: JSON.stringify(value) })));
}
