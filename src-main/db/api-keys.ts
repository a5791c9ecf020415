import type { Database, Statement } from 'better-sqlite3';
import { Table } from './sql';
import type { WriteTx } from './writes';

/** A row of `api_keys` (migration 001): only the SHA-256 of a key is stored. */
export type ApiKeyRow = {
  id: string;
  name: string;
  hash: Buffer;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

export const API_KEYS = Table.of<ApiKeyRow>()('api_keys', ['id', 'name', 'hash', 'created_at', 'last_used_at', 'revoked_at']);

export type ApiKeyInfoRow = Omit<ApiKeyRow, 'hash'>;

export class ApiKeysRepository {
  private readonly activeStatement: Statement<[], Pick<ApiKeyRow, 'id' | 'hash'>>;
  private readonly insertStatement: Statement<[Pick<ApiKeyRow, 'id' | 'name' | 'hash' | 'created_at'>]>;
  private readonly listStatement: Statement<[], ApiKeyInfoRow>;
  private readonly revokeStatement: Statement<[string, string]>;
  private readonly pruneStatement: Statement<[string, number]>;
  private readonly touchStatement: Statement<[string, string]>;

  constructor(db: Database) {
    this.activeStatement = db.prepare<[], Pick<ApiKeyRow, 'id' | 'hash'>>(`SELECT ${API_KEYS.select(['id', 'hash'])} FROM api_keys WHERE revoked_at IS NULL`);
    this.insertStatement = db.prepare(API_KEYS.insertRowSql({ columns: ['id', 'name', 'hash', 'created_at'] }));
    this.listStatement = db.prepare<[], ApiKeyInfoRow>(`SELECT ${API_KEYS.select(['id', 'name', 'created_at', 'last_used_at', 'revoked_at'])} FROM api_keys ORDER BY created_at, id`);
    this.revokeStatement = db.prepare<[string, string]>('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');
    this.pruneStatement = db.prepare<[string, number]>(
      `DELETE FROM api_keys WHERE revoked_at IS NOT NULL AND (revoked_at < ? OR id NOT IN (
         SELECT id FROM api_keys WHERE revoked_at IS NOT NULL ORDER BY revoked_at DESC, id DESC LIMIT ?))`,
    );
    this.touchStatement = db.prepare<[string, string]>('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  }

  /** Ids and hashes of the keys not revoked. */
  active(): Array<Pick<ApiKeyRow, 'id' | 'hash'>> {
    return this.activeStatement.all();
  }

  insert(_turn: WriteTx, row: Pick<ApiKeyRow, 'id' | 'name' | 'hash' | 'created_at'>): void {
    this.insertStatement.run(row);
  }

  /** Every key, oldest first, without its hash. */
  list(): ApiKeyInfoRow[] {
    return this.listStatement.all();
  }

  /** Revokes an active key; 1 when it was active. */
  revoke(_turn: WriteTx, id: string, revokedAt: string): number {
    return this.revokeStatement.run(revokedAt, id).changes;
  }

  /** Deletes revoked keys revoked before `cutoff`, and all but the newest `keepMax` revoked ones. */
  pruneRevoked(_turn: WriteTx, cutoff: string, keepMax: number): number {
    return this.pruneStatement.run(cutoff, keepMax).changes;
  }

  /** Stamps the key's last use. */
  touch(_turn: WriteTx, id: string, usedAt: string): void {
    this.touchStatement.run(usedAt, id);
  }
}
