import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

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

  /** Writes the rows, all or none (a savepoint in the caller's transaction). */
  save(_turn: WriteTx, rows: readonly SettingRow[]): void {
    this.db.transaction(() => {
      for (const row of rows) this.upsertStatement.run(row);
    })();
  }
}
