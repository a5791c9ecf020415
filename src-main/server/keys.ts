import type { Database } from 'better-sqlite3';
import { dataVersionReader } from '../db/open';
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RECENT_KEYS = 8;
/**
 * Revoked keys stay listed (`keys list` shows when they were revoked) for this many days, and at most this many of
 * them: each rotation revokes one, so a process looping on `POST /v1/keys/rotate` cannot grow the table.
 */
export const REVOKED_KEEP_DAYS = 30;
export const REVOKED_KEEP_MAX = 20;

/** 32 random bytes (256 bits), base64url: `sb_` + 43 characters. */
export function generateKey(): string {
  return `sb_${randomBytes(32).toString('base64url')}`;
}

function sha256(text: string): Buffer {
  // One-shot hash: a third of createHash's cost, and it runs on every request.
  return hash('sha256', text, 'buffer');
}

export interface KeyInfo {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface KeyRow {
  id: string;
  name: string;
  hash: Buffer;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/**
 * API keys, stored only as SHA-256 hashes. Verification hashes the presented key and compares it with every
 * active hash in constant time (no early exit), so timing reveals neither which key nor how much matched.
 */
export class KeyStore {
  private active: Array<{ id: string; hash: Buffer }> = [];
  private readonly touched = new Set<string>();
  private dataVersion = -1;
  /**
   * Keys verified recently, kept in memory as presented (the process sees them in every request anyway), so
   * that a request costs one constant-time comparison instead of a SHA-256. Cleared whenever keys change.
   */
  private recent: Array<{ token: Buffer; id: string }> = [];
  private readonly readDataVersion: () => number;
  private readonly changeListeners = new Set<() => void>();

  constructor(private readonly db: Database) {
    this.readDataVersion = dataVersionReader(db);
    this.reload();
  }

  private reload(): void {
    const rows = this.db.prepare('SELECT id, hash FROM api_keys WHERE revoked_at IS NULL').all() as Array<Pick<KeyRow, 'id' | 'hash'>>;
    this.active = rows.map((row) => ({ id: row.id, hash: Buffer.from(row.hash) }));
    this.recent = [];
    for (const listener of this.changeListeners) listener();
  }

  /** Called after every reload of the active keys (a key created, revoked or rotated, here or elsewhere). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Picks up keys changed by another process (`keys create|revoke` commit through another connection). */
  refresh(): void {
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.reload();
    }
  }

  isActive(id: string): boolean {
    return this.active.some((key) => key.id === id);
  }

  create(name: string): { id: string; key: string } {
    const key = generateKey();
    const id = randomUUID();
    this.db
      .prepare('INSERT INTO api_keys (id, name, hash, created_at) VALUES (?, ?, ?, ?)')
      .run(id, name, sha256(key), new Date().toISOString());
    this.reload();
    return { id, key };
  }

  /**
   * A new key and, in the same transaction, the revocation of `currentId` (the key of the key file): a rotation
   * either happens whole or not at all.
   */
  rotate(currentId: string | null, name: string): { id: string; key: string } {
    const key = generateKey();
    const id = randomUUID();
    const now = new Date().toISOString();
    this.db
      .transaction(() => {
        this.db.prepare('INSERT INTO api_keys (id, name, hash, created_at) VALUES (?, ?, ?, ?)').run(id, name, sha256(key), now);
        if (currentId !== null) {
          this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, currentId);
          this.pruneRevoked(Date.parse(now));
        }
      })
      .immediate();
    this.reload();
    return { id, key };
  }

  list(): KeyInfo[] {
    const rows = this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as KeyRow[];
    return rows.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at, revokedAt: row.revoked_at }));
  }

  /** Revokes by id or by a unique id prefix (as `keys list` shows it); prunes old revoked keys in the same write. */
  revoke(idOrPrefix: string): KeyInfo | null {
    const matches = this.list().filter((key) => key.revokedAt === null && key.id.startsWith(idOrPrefix));
    const [match] = matches;
    if (matches.length !== 1 || match === undefined) return null;
    const revokedAt = new Date().toISOString();
    this.db
      .transaction(() => {
        this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(revokedAt, match.id);
        this.pruneRevoked(Date.parse(revokedAt));
      })
      .immediate();
    this.reload();
    return { ...match, revokedAt };
  }

  /** Deletes revoked keys older than REVOKED_KEEP_DAYS and all but the newest REVOKED_KEEP_MAX revoked ones. */
  private pruneRevoked(nowMs: number): number {
    const cutoff = new Date(nowMs - REVOKED_KEEP_DAYS * 86_400_000).toISOString();
    return this.db
      .prepare(
        `DELETE FROM api_keys WHERE revoked_at IS NOT NULL AND (revoked_at < ? OR id NOT IN (
           SELECT id FROM api_keys WHERE revoked_at IS NOT NULL ORDER BY revoked_at DESC, id DESC LIMIT ?))`,
      )
      .run(cutoff, REVOKED_KEEP_MAX).changes;
  }

  activeCount(): number {
    return this.active.length;
  }

  /** The id of the key, or null. Constant time in the key's content. */
  verify(presented: string): string | null {
    this.refresh();
    const token = Buffer.from(presented, 'utf8');
    let found: string | null = null;
    for (const entry of this.recent) {
      if (entry.token.length === token.length && timingSafeEqual(entry.token, token)) found = entry.id;
    }
    if (found === null) {
      const digest = sha256(presented);
      for (const key of this.active) {
        if (timingSafeEqual(digest, key.hash)) found = key.id;
      }
      if (found !== null) this.recent = [{ token, id: found }, ...this.recent].slice(0, RECENT_KEYS);
    }
    if (found !== null) this.touched.add(found);
    return found;
  }

  /**
   * Writes the last-used stamps gathered since the last flush (kept off the request path), in one transaction. If
   * it fails (another process holds the write lock) the stamps stay gathered for the next flush.
   */
  flushUsage(): void {
    if (this.touched.size === 0) return;
    const now = new Date().toISOString();
    const ids = [...this.touched];
    const update = this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
    this.db.transaction(() => {
      for (const id of ids) update.run(now, id);
    }).immediate();
    for (const id of ids) this.touched.delete(id);
  }
}

export const KEY_FILE = 'api-key';

/**
 * The key file holds one plaintext key for the user's scripts (mode 0600). On first start, or when the file's
 * key is no longer valid, a new key is created and written. Returns the usable key.
 */
export function ensureKeyFile(store: KeyStore, dataDir: string): { key: string; path: string; created: boolean } {
  const path = join(dataDir, KEY_FILE);
  if (existsSync(path)) {
    const key = readFileSync(path, 'utf8').trim();
    if (store.verify(key) !== null) {
      chmodSync(path, 0o600);
      return { key, path, created: false };
    }
  }
  const { key } = store.create('default');
  writeKeyFile(path, key);
  return { key, path, created: true };
}

export function writeKeyFile(path: string, key: string): void {
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
