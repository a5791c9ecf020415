import type { Database } from 'better-sqlite3';

/** User settings, kept in the `settings` table as JSON values; defaults per DESIGN §3–§5. */
export interface Settings {
  port: number;
  /** Risk-free rate r of the exposure engine. */
  rate: number;
  /** Journal time zone: trade days are calendar days here. */
  timeZone: string;
  reportingCurrency: string;
  /** Exposure answer cache lifetime. */
  cacheSeconds: number;
  rateLimit: { perSecond: number; burst: number };
  /** Snapshots kept per symbol (the newest N). */
  snapshotRetention: number;
  /** Origins allowed by CORS; empty = no CORS headers. */
  corsOrigins: string[];
  onlineSource: { enabled: boolean; baseUrl: string; watchlist: string[]; intervalSeconds: number };
}

export const DEFAULT_SETTINGS: Settings = {
  port: 7717,
  rate: 0.04,
  timeZone: 'America/New_York',
  reportingCurrency: 'USD',
  cacheSeconds: 60,
  rateLimit: { perSecond: 50, burst: 100 },
  snapshotRetention: 20,
  corsOrigins: [],
  onlineSource: { enabled: false, baseUrl: 'https://cdn.cboe.com/api/global/delayed_quotes/options', watchlist: ['SPX', 'SPY'], intervalSeconds: 300 },
};

export function loadSettings(db: Database, overrides: Partial<Settings> = {}): Settings {
  const rows = db.prepare('SELECT key, value FROM settings').all() as Array<{ key: string; value: string }>;
  const stored: Record<string, unknown> = {};
  for (const row of rows) {
    try {
      stored[row.key] = JSON.parse(row.value);
    } catch {
      // A value we cannot read falls back to its default rather than stopping the app.
    }
  }
  return { ...DEFAULT_SETTINGS, ...(stored as Partial<Settings>), ...overrides };
}

export function saveSettings(db: Database, changes: Partial<Settings>): void {
  const upsert = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  db.transaction(() => {
    for (const [key, value] of Object.entries(changes)) upsert.run(key, JSON.stringify(value));
  })();
}
