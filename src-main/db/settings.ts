import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';

/** A row of `settings` (migration 001): one setting, its value as JSON. */
export type SettingRow = {
  key: string;
  value: string;
};

export const SETTINGS = Table.of<SettingRow>()('settings', ['key', 'value']);

export class SettingsRepository {
  private readonly allStatement: Statement<[], SettingRow>;
  private readonly upsertStatement: Statement<[SettingRow]>;

  constructor(private readonly db: Database) {
    this.allStatement = db.prepare<[], SettingRow>(`SELECT ${SETTINGS.columnList} FROM settings`);
    this.upsertStatement = db.prepare<[SettingRow]>(`${SETTINGS.insertRowSql()} ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
  }

  all(): SettingRow[] {
    return this.allStatement.all();
  }

  /** Writes the rows in one transaction (inside the caller's, when it has one). */
  save(rows: readonly SettingRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) this.upsertStatement.run(row);
    })();
  }
}
