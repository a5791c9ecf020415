/**
 * The /v1 contract: one schema per request and response (docs/architecture.md §Layout, §3–§5). The server validates and
 * serialises with these, the OpenAPI document is generated from them, and the renderer takes its types
 * from them. Money is in currency units rounded to cents; exposure in the unit named by `meta.unit`.
 */
import { Type, type Static } from 'typebox';
import { SYMBOL_PATTERN } from './schema-kit';
import { MAX_SCHEDULE_TIMES, SCHEDULE_TIME_PATTERN } from './constants';

export type { BrokerId, Formula } from './constants';
export { ProblemSchema, AccountSchema, NoQuery, HealthSchema, PaginationSchema, type AccountJson } from './schema-kit';
export * from './journal-schemas';
export * from './position-schemas';
export * from './import-schemas';
export * from './exposure-schemas';
export * from './event-schemas';
export * from './lake-schemas';
export * from './manual-schemas';
export * from './trade-schemas';
export * from './refresh-schemas';
export * from './reconciliation-schemas';
export * from './corporate-action-schemas';
export * from './backup-schemas';
export * from './manage-schemas';
import { ManageRulesSchema } from './manage-schemas';
export * from './arrival-schemas';

// ---------------------------------------------------------------- settings, keys, demo

export const SettingsSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535, description: 'Port of the API (takes effect at the next start)' }),
  dataDir: Type.String({ description: 'Data folder (read only)' }),
  rate: Type.Number({ minimum: -0.05, maximum: 0.25, description: 'Risk-free rate r of the exposure engine' }),
  timeZone: Type.String({ description: 'IANA zone of journal trade days' }),
  reportingCurrency: Type.String({ pattern: '^[A-Z]{3}$' }),
  markMaxAgeDays: Type.Integer({
    minimum: 0,
    maximum: 250,
    description: 'A snapshot marks a position when quoted within this many New York trading days before asOf; an older one is stale (shown, left out of values and totals)',
  }),
  cacheSeconds: Type.Integer({ minimum: 0, maximum: 3600 }),
  snapshotRetention: Type.Integer({ minimum: 1, maximum: 1000, description: 'Snapshots kept per symbol (the newest N), unless snapshotRetentionBySymbol names the symbol' }),
  snapshotRetentionBySymbol: Type.Record(Type.String({ pattern: '^[A-Z0-9][A-Z0-9._/^-]{0,15}$' }), Type.Integer({ minimum: 1, maximum: 1000 }), {
    maxProperties: 100,
    additionalProperties: false,
    description: 'Snapshots kept for particular symbols (upper case), e.g. {"SPX": 100}',
  }),
  rateLimit: Type.Object({ perSecond: Type.Number({ exclusiveMinimum: 0, maximum: 100000 }), burst: Type.Integer({ minimum: 1, maximum: 100000 }) }, { additionalProperties: false }),
  corsOrigins: Type.Array(Type.String({ maxLength: 200, description: 'An exact origin, scheme://host[:port] (no *, no path)' }), {
    maxItems: 20,
    description: 'Origins allowed by CORS; empty = no CORS headers',
  }),
  onlineSource: Type.Object(
    {
      enabled: Type.Boolean(),
      baseUrl: Type.String({ pattern: '^(https?://|$)', maxLength: 500, description: 'Where the CBOE delayed-quotes JSON is fetched (<baseUrl>/<SYMBOL>.json); empty = no online source' }),
      watchlist: Type.Array(Type.String({ pattern: SYMBOL_PATTERN }), { maxItems: 50 }),
      intervalSeconds: Type.Integer({ minimum: 15, maximum: 86400 }),
    },
    { additionalProperties: false },
  ),
  watchlistIncludesPositions: Type.Boolean({
    description: 'The online source\'s watchlist (its polls and POST /v1/chains/refresh) also holds the underlying of every open position (at most 50 symbols in all)',
  }),
  importTimeoutSeconds: Type.Integer({ minimum: 1, maximum: 3600, description: 'Time limit of reading and checking an uploaded broker or chain file (IMPORT_TIMEOUT past it)' }),
  positionAlertDistancePct: Type.Number({ exclusiveMinimum: 0, maximum: 20, description: 'A dealer level (flip, call or put wall) that comes within this % of a short strike, or crosses it, is a position event (default 1)' }),
  notifyPositionAlerts: Type.Boolean({ description: 'The desktop app shows a system notification for each position event' }),
  backupsKept: Type.Integer({ minimum: 1, maximum: 100, description: "Backups of the journal kept in the data folder's backups/ (the newest N; GET /v1/backups)" }),
  manageRules: ManageRulesSchema,
  watchFolder: Type.String({
    maxLength: 1000,
    description: 'A folder whose new chain files are stored once they stop growing, then moved to imported/ or failed/ (with <name>.reason.txt); an absolute path, "" = none',
  }),
  refreshSchedule: Type.Array(Type.String({ pattern: SCHEDULE_TIME_PATTERN, description: 'HH:MM, New York time (24 h)' }), {
    maxItems: MAX_SCHEDULE_TIMES,
    description: 'New York times of day at which the online source is fetched once (a Refresh now pass), on trading days; [] = none',
  }),
});
export type SettingsJson = Static<typeof SettingsSchema>;
export const SettingsUpdate = Type.Partial(Type.Omit(SettingsSchema, ['dataDir']), { additionalProperties: false });
export type SettingsUpdateT = Static<typeof SettingsUpdate>;

export const KeyRotateResponse = Type.Object({ key: Type.String(), keyFile: Type.String() });
export const DemoResponse = Type.Object({ transactions: Type.Integer(), snapshots: Type.Integer(), events: Type.Integer() });
