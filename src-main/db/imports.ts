import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `imports` (migration 002): one per import, with its report as JSON. */
export type ImportRow = {
  id: number;
  broker: string;
  source: string;
  filename: string | null;
  created_at: string;
  rows: number;
  imported: number;
  duplicates: number;
  report_json: string;
};

export const IMPORTS = Table.of<ImportRow>()('imports', ['id', 'broker', 'source', 'filename', 'created_at', 'rows', 'imported', 'duplicates', 'report_json']);

/** The columns of a new import (the id is SQLite's). */
const NEW_IMPORT_COLUMNS = IMPORTS.columns.filter((column) => column !== 'id');
export type NewImportRow = Omit<ImportRow, 'id'>;
export type ImportListRow = Pick<ImportRow, 'id' | 'imported' | 'duplicates' | 'report_json'>;

export class ImportsRepository {
  private readonly insertStatement: Statement<[NewImportRow]>;
  private readonly finishStatement: Statement<[Pick<ImportRow, 'id' | 'imported' | 'duplicates' | 'report_json'>]>;
  private readonly countStatement: Statement<[], number>;
  private readonly pageStatement: Statement<[number, number], ImportListRow>;
  private readonly existsStatement: Statement<[number], number>;
  private readonly deleteStatement: Statement<[number]>;

  constructor(private readonly db: Database) {
    this.insertStatement = db.prepare<[NewImportRow]>(IMPORTS.insertRowSql({ columns: NEW_IMPORT_COLUMNS }));
    this.finishStatement = db.prepare('UPDATE imports SET imported = @imported, duplicates = @duplicates, report_json = @report_json WHERE id = @id');
    this.countStatement = db.prepare<[], number>('SELECT COUNT(*) FROM imports').pluck();
    this.pageStatement = db.prepare<[number, number], ImportListRow>(`SELECT ${IMPORTS.select(['id', 'imported', 'duplicates', 'report_json'])} FROM imports ORDER BY id DESC LIMIT ? OFFSET ?`);
    this.existsStatement = db.prepare<[number], number>('SELECT EXISTS (SELECT 1 FROM imports WHERE id = ?)').pluck();
    this.deleteStatement = db.prepare<[number]>('DELETE FROM imports WHERE id = ?');
  }

  /** Records a new import; returns its id. */
  insert(_turn: WriteTx, row: NewImportRow): number {
    return Number(this.insertStatement.run(row).lastInsertRowid);
  }

  /** The counts and the report, once the rows are stored. */
  finish(_turn: WriteTx, row: Pick<ImportRow, 'id' | 'imported' | 'duplicates' | 'report_json'>): void {
    this.finishStatement.run(row);
  }

  count(): number {
    return this.countStatement.get() ?? 0;
  }

  /** Newest first. */
  page(limit: number, offset: number): ImportListRow[] {
    return this.pageStatement.all(limit, offset);
  }

  /** The counts and the report of an import whose rows changed since (manual entries edited or deleted one by one). */
  recount(_turn: WriteTx, row: Pick<ImportRow, 'id' | 'rows' | 'imported' | 'report_json'>): void {
    this.db.prepare<[Pick<ImportRow, 'id' | 'rows' | 'imported' | 'report_json'>]>('UPDATE imports SET rows = @rows, imported = @imported, report_json = @report_json WHERE id = @id').run(row);
  }

  /** One import, or null (prepared when used: manual entries recount their import). */
  byId(id: number): ImportRow | null {
    return this.db.prepare<[number], ImportRow>(`SELECT ${IMPORTS.columnList} FROM imports WHERE id = ?`).get(id) ?? null;
  }

  exists(id: number): boolean {
    return this.existsStatement.get(id) === 1;
  }

  delete(_turn: WriteTx, id: number): number {
    return this.deleteStatement.run(id).changes;
  }
}
