import type { Database } from 'better-sqlite3';

/**
 * One numbered step of the schema. Its own file, below index.ts: every migration imports this type and index.ts imports
 * every migration, so the type in index.ts made a loop of them all (docs/architecture.md §Layout: no import loops).
 */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
