import type { Database } from 'better-sqlite3';
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { nowIso, type Clock } from '../clock';
import { ApiKeysRepository } from '../db/api-keys';
import { dataVersionReader } from '../db/open';
import { writeNow, type WriteTx } from '../db/writes';
import { join } from 'node:path';
import { DataFolderError } from '../db/data-folder';
import { KEY_FILE, KeyFileError, readKeyFile, writeKeyFile } from './key-file';

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
  /** The same, read every time (not kept 25 ms): for the one check that must see a revocation of a moment ago. */
  private readonly readDataVersionNow: () => number;
  private readonly changeListeners = new Set<() => void>();
  private readonly rows: ApiKeysRepository;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.rows = new ApiKeysRepository(db);
    this.readDataVersion = dataVersionReader(db);
    this.readDataVersionNow = dataVersionReader(db, 0);
    this.reload();
  }

  /** Reads the active keys again (after a change this store did not make itself, such as a rotation's commit). */
  reload(): void {
    this.active = this.rows.active().map((row) => ({ id: row.id, hash: Buffer.from(row.hash) }));
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

  /**
   * Whether the key is active in the database as it is now, revocations by another process (the CLI) a moment ago
   * included: a stream ticket is checked with it when its stream opens (issue 29: one opened a stream for ~1 s).
   */
  isLive(id: string): boolean {
    const version = this.readDataVersionNow();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.reload();
    }
    return this.isActive(id);
  }

  /** A new key; `persist` (the key file's writer) runs in the same transaction: if it throws, no key was created. */
  create(name: string, persist: (key: string) => void = () => undefined): { id: string; key: string } {
    const key = generateKey();
    const id = randomUUID();
    writeNow(this.db, (turn) => {
      this.rows.insert(turn, { id, name, hash: sha256(key), created_at: nowIso(this.clock) });
      persist(key);
    });
    this.reload();
    return { id, key };
  }

  /**
   * A new key and, in the caller's transaction, the revocation of `currentId` (the key of the key file); `persist` puts
   * the new key into the key file inside that transaction, so that a key file that cannot be written rolls the
   * rows back (it throws: the caller's transaction is rolled back). The caller runs this inside a write turn and calls `reload()` once it has committed: until then the
   * keys in memory stay the old ones, and a transaction that fails changes nothing (docs/decisions.md §API).
   */
  rotate(turn: WriteTx, currentId: string | null, name: string, persist: (key: string) => void): { id: string; key: string } {
    const key = generateKey();
    const id = randomUUID();
    const nowMs = this.clock.nowMs();
    const now = new Date(nowMs).toISOString();
    this.rows.insert(turn, { id, name, hash: sha256(key), created_at: now });
    if (currentId !== null) {
      this.rows.revoke(turn, currentId, now);
      this.pruneRevoked(turn, nowMs);
    }
    persist(key);
    return { id, key };
  }

  list(): KeyInfo[] {
    return this.rows.list().map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at, revokedAt: row.revoked_at }));
  }

  /** Revokes by id or by a unique id prefix (as `keys list` shows it); prunes old revoked keys in the same write. */
  revoke(idOrPrefix: string): KeyInfo | null {
    const matches = this.list().filter((key) => key.revokedAt === null && key.id.startsWith(idOrPrefix));
    const [match] = matches;
    if (matches.length !== 1 || match === undefined) return null;
    const nowMs = this.clock.nowMs();
    const revokedAt = new Date(nowMs).toISOString();
    writeNow(this.db, (turn) => {
      this.rows.revoke(turn, match.id, revokedAt);
      this.pruneRevoked(turn, nowMs);
    });
    this.reload();
    return { ...match, revokedAt };
  }

  /** Deletes revoked keys older than REVOKED_KEEP_DAYS and all but the newest REVOKED_KEEP_MAX revoked ones. */
  private pruneRevoked(turn: WriteTx, nowMs: number): number {
    return this.rows.pruneRevoked(turn, new Date(nowMs - REVOKED_KEEP_DAYS * 86_400_000).toISOString(), REVOKED_KEEP_MAX);
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
   * Writes the last-used stamps gathered since the last flush (kept off the request path), in the caller's transaction. If
   * it fails (another process holds the write lock) the stamps stay gathered for the next flush.
   */
  flushUsage(turn: WriteTx): void {
    if (this.touched.size === 0) return;
    const now = nowIso(this.clock);
    const ids = [...this.touched];
    for (const id of ids) this.rows.touch(turn, id, now);
    for (const id of ids) this.touched.delete(id);
  }
}

/**
 * The key file holds one plaintext key for the user's scripts (mode 0600). On first start, or when the file's
 * key is no longer valid, a new key is created and written. Returns the usable key. A symbolic link in its place, or
 * a key file that cannot be written, stops the start (DataFolderError).
 */
export function ensureKeyFile(store: KeyStore, dataDir: string): { key: string; path: string; created: boolean } {
  const path = join(dataDir, KEY_FILE);
  const current = readKeyFile(path);
  if (current !== null && store.verify(current) !== null) return { key: current, path, created: false };
  try {
    const { key } = store.create('default', (created) => writeKeyFile(path, created));
    return { key, path, created: true };
  } catch (error) {
    if (error instanceof KeyFileError) throw new DataFolderError(`${error.message} Strikebook keeps its key file in its data folder and must be able to write it.`, path);
    throw error;
  }
}
