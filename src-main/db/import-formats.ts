import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `import_formats` (migration 006): a user-defined format, its header and mapping as JSON. */
export type ImportFormatRow = {
  id: string;
  name: string;
  header_key: string;
  header_json: string;
  mapping_json: string;
  created_at: string;
  updated_at: string;
};

export const IMPORT_FORMATS = Table.of<ImportFormatRow>()('import_formats', ['id', 'name', 'header_key', 'header_json', 'mapping_json', 'created_at', 'updated_at']);

export class ImportFormatsRepository {
  private readonly listStatement: Statement<[], ImportFormatRow>;
  private readonly countStatement: Statement<[], number>;
  private readonly byKeyStatement: Statement<[string], ImportFormatRow>;
  private readonly byIdStatement: Statement<[string], ImportFormatRow>;
  private readonly insertStatement: Statement<[ImportFormatRow]>;
  private readonly replaceStatement: Statement<[Omit<ImportFormatRow, 'created_at'>]>;
  private readonly deleteStatement: Statement<[string]>;

  constructor(db: Database) {
    this.listStatement = db.prepare<[], ImportFormatRow>(`SELECT ${IMPORT_FORMATS.columnList} FROM import_formats ORDER BY created_at, id`);
    this.countStatement = db.prepare<[], number>('SELECT COUNT(*) FROM import_formats').pluck();
    this.byKeyStatement = db.prepare<[string], ImportFormatRow>(`SELECT ${IMPORT_FORMATS.columnList} FROM import_formats WHERE header_key = ?`);
    this.byIdStatement = db.prepare<[string], ImportFormatRow>(`SELECT ${IMPORT_FORMATS.columnList} FROM import_formats WHERE id = ?`);
    this.insertStatement = db.prepare<[ImportFormatRow]>(IMPORT_FORMATS.insertRowSql({ columns: IMPORT_FORMATS.columns }));
    this.replaceStatement = db.prepare<[Omit<ImportFormatRow, 'created_at'>]>(
      'UPDATE import_formats SET name = @name, header_key = @header_key, header_json = @header_json, mapping_json = @mapping_json, updated_at = @updated_at WHERE id = @id',
    );
    this.deleteStatement = db.prepare<[string]>('DELETE FROM import_formats WHERE id = ?');
  }

  /** Oldest first. */
  list(): ImportFormatRow[] {
    return this.listStatement.all();
  }

  count(): number {
    return this.countStatement.get() ?? 0;
  }

  byId(id: string): ImportFormatRow | undefined {
    return this.byIdStatement.get(id);
  }

  byHeaderKey(key: string): ImportFormatRow | undefined {
    return this.byKeyStatement.get(key);
  }

  insert(_turn: WriteTx, row: ImportFormatRow): void {
    this.insertStatement.run(row);
  }

  /** 1 when the format existed. */
  replace(_turn: WriteTx, row: Omit<ImportFormatRow, 'created_at'>): number {
    return this.replaceStatement.run(row).changes;
  }

  delete(_turn: WriteTx, id: string): number {
    return this.deleteStatement.run(id).changes;
  }
}
