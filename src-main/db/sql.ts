/**
 * The two helpers every repository builds on: a table's column list, typed against its row, from which the SELECT
 * and INSERT lists are derived (so a column is named once); and `sql`, a tagged template for the dynamic parts of a
 * statement (WHERE, IN) in which every value becomes a bound parameter, never text.
 */

/** What SQLite binds and returns. */
export type SqlValue = string | number | bigint | Buffer | null;

/** A piece of SQL and the values bound to its `?`s, in order. */
export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly SqlValue[],
  ) {}
}

/**
 * `sql\`ticker IN ${sql.list(tickers)} AND expiration >= ${from}\``: values become `?` parameters; an interpolated
 * Sql is spliced in with its parameters.
 */
export function sql(strings: TemplateStringsArray, ...parts: ReadonlyArray<SqlValue | Sql>): Sql {
  let text = strings[0] ?? '';
  const params: SqlValue[] = [];
  parts.forEach((part, index) => {
    if (part instanceof Sql) {
      text += part.text;
      params.push(...part.params);
    } else {
      text += '?';
      params.push(part);
    }
    text += strings[index + 1] ?? '';
  });
  return new Sql(text, params);
}

/** `(?, ?, ?)` for an IN list (SQLite reads an empty list as matching nothing). */
sql.list = (values: readonly SqlValue[]): Sql => new Sql(`(${values.map(() => '?').join(', ')})`, values);

/** `WHERE a AND b` of the conditions given, or nothing when there are none. */
sql.where = (conditions: readonly Sql[]): Sql =>
  conditions.length === 0 ? new Sql('', []) : new Sql(`WHERE ${conditions.map((c) => c.text).join(' AND ')}`, conditions.flatMap((c) => c.params));

/** Column names of `Row` that the list leaves out (never, when the list is complete). */
type MissingColumns<Row, Columns extends readonly (keyof Row)[]> = Exclude<keyof Row, Columns[number]>;

/**
 * A table: its name and its columns in one list, checked against the row type (a column missing from the list is a
 * type error naming it). SELECT and INSERT lists come from here.
 */
export class Table<Row extends Record<string, SqlValue>, Columns extends readonly (keyof Row & string)[] = readonly (keyof Row & string)[]> {
  /** `a, b, c`: every column, in the list's order. */
  readonly columnList: string;

  private constructor(
    readonly name: string,
    readonly columns: Columns,
  ) {
    this.columnList = columns.join(', ');
  }

  /** The table of `Row`: `Table.of<Row>()('name', ['a', 'b'])`; every column of Row must be listed. */
  static of<Row extends Record<string, SqlValue>>() {
    return <const Columns extends readonly (keyof Row & string)[]>(
      name: string,
      columns: Columns & (MissingColumns<Row, Columns> extends never ? unknown : { missingColumns: MissingColumns<Row, Columns> }),
    ): Table<Row, Columns> => new Table<Row, Columns>(name, columns);
  }

  /** The whole column list as a piece of `sql` (it is the table's own text, never a request's). */
  columnsSql(): Sql {
    return new Sql(this.columnList, []);
  }

  /** `a, b`: some of the columns (a SELECT of part of the row). */
  select<const Some extends readonly (keyof Row & string)[]>(columns: Some): string {
    return columns.join(', ');
  }

  /** `INSERT [OR IGNORE] INTO t (every column) VALUES (?, ...)` for `rows` rows per statement. */
  insertSql(options: { orIgnore?: boolean; rows?: number } = {}): string {
    const one = `(${this.columns.map(() => '?').join(', ')})`;
    return `INSERT ${options.orIgnore ? 'OR IGNORE ' : ''}INTO ${this.name} (${this.columnList}) VALUES ${new Array<string>(options.rows ?? 1).fill(one).join(', ')}`;
  }

  /**
   * `INSERT [OR IGNORE] INTO t (a, b) VALUES (@a, @b)`: its parameter is a row object (of every column, or of
   * `columns`: an id SQLite assigns is left out).
   */
  insertRowSql(options: { orIgnore?: boolean; columns?: readonly (keyof Row & string)[] } = {}): string {
    const columns = options.columns ?? this.columns;
    return `INSERT ${options.orIgnore ? 'OR IGNORE ' : ''}INTO ${this.name} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
  }

  /** `UPDATE t SET a = @a, b = @b WHERE key = @key`: its parameter is a whole row object (the key's column is not set). */
  updateRowSql(key: keyof Row & string): string {
    return `UPDATE ${this.name} SET ${this.columns.filter((c) => c !== key).map((c) => `${c} = @${c}`).join(', ')} WHERE ${key} = @${key}`;
  }

  /** The row's values in the order of the column list, appended to `into` (the parameters of insertSql). */
  pushValues(row: Row, into: SqlValue[]): void {
    for (const column of this.columns) into.push(row[column] ?? null);
  }
}
