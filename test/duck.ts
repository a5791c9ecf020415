/**
 * A real DuckDB (@duckdb/node-api, in memory) reading the lake as a researcher would, and the DuckDB queries of
 * docs/research.md taken from the page itself, so that the documented queries are the tested ones.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { REPO_ROOT } from './paths';

export type DuckRow = Record<string, unknown>;

export interface Duck {
  /** Rows as JSON values: BIGINT and DECIMAL as text, DATE as YYYY-MM-DD, DOUBLE as numbers. */
  rows(sql: string): Promise<DuckRow[]>;
  run(sql: string): Promise<void>;
  close(): void;
}

export async function openDuck(): Promise<Duck> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection: DuckDBConnection = await instance.connect();
  return {
    async rows(sql) {
      const reader = await connection.runAndReadAll(sql);
      return reader.getRowObjectsJson() as DuckRow[];
    },
    async run(sql) {
      await connection.run(sql);
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** The `-- duckdb: <name>` blocks of docs/research.md, with the lake's folder put where the page says `lake/`. */
export function documentedQueries(lakeDir: string): Map<string, string> {
  const text = readFileSync(join(REPO_ROOT, 'docs', 'research.md'), 'utf8');
  const queries = new Map<string, string>();
  for (const block of text.matchAll(/```sql\n-- duckdb: ([^\n]+)\n([\s\S]*?)```/g)) {
    const [, name, body] = block;
    if (name !== undefined && body !== undefined) queries.set(name.trim(), body.replaceAll("'lake/", `'${lakeDir}/`));
  }
  return queries;
}

export function query(queries: Map<string, string>, name: string): string {
  const sql = queries.get(name);
  if (sql === undefined) throw new Error(`docs/research.md has no "-- duckdb: ${name}" block`);
  return sql;
}

/** Temporary folders of a test file, removed after its tests (a lake of real chains is megabytes). */
export function scratchFolders(): { make: (prefix: string) => string; removeAll: () => void } {
  const made: string[] = [];
  return {
    make(prefix) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
