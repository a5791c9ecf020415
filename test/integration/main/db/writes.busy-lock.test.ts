/**
 * A database locked by another process never kills the server (issue 8). Another process holds `BEGIN IMMEDIATE`
 * for 40 s (as the CLI importing a million rows, or a backup tool, would) while a real `strikebook serve` is used
 * with reads and writes and its key-usage flush fires every 2 s: the server stays up and answers 200 or 503
 * DATABASE_BUSY with Retry-After, never another 5xx; afterwards writes succeed and the usage gathered during the
 * lock is written.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli, startServe } from '../../../cli';
import { tempDir } from '../../../paths';
import { holdWriteLock } from '../../../lock';

const LOCK_SECONDS = 40;
const FLUSH_MS = 2000;

interface Answer {
  kind: 'read' | 'write';
  name: string;
  status: number;
  code?: string;
  retryAfter: string | null;
  /** Date.now() when the answer arrived. */
  atMs: number;
}

describe('another process holds the write lock for 40 s', () => {
  it('the server stays up, answers 200 or 503 DATABASE_BUSY with Retry-After, and catches up afterwards', async () => {
    const dataDir = tempDir();
    const server = await startServe(['--port', '0', '--data-dir', dataDir, '--demo'], 120_000, { env: { STRIKEBOOK_KEY_USAGE_FLUSH_MS: String(FLUSH_MS) } });
    const dbPath = join(dataDir, 'strikebook.db');
    let holder: ReturnType<typeof holdWriteLock> | null = null;
    try {
      let key = readFileSync(server.keyFile, 'utf8').trim();
      // A second key, used only while the lock is held: its use must be written once the lock is gone.
      const created = runCli(['keys', 'create', '--name', 'during-lock', '--data-dir', dataDir]);
      expect(created.status, created.stderr).toBe(0);
      const lockOnlyKey = created.stdout.trim();
      const lastUsed = (name: string) => {
        const db = new Database(dbPath, { readonly: true });
        try {
          return (db.prepare('SELECT last_used_at FROM api_keys WHERE name = ?').pluck().get(name) as string | null) ?? null;
        } finally {
          db.close();
        }
      };
      expect(lastUsed('during-lock')).toBeNull();
      const imports = await fetch(`${server.apiBaseUrl}/imports`, { headers: { authorization: `Bearer ${key}` } });
      // Undo takes back the newest import (the demo's at first).
      let undoId = ((await imports.json()) as { imports: Array<{ id: number }> }).imports[0]?.id ?? 0;

      let n = 0;
      const csv = () => {
        n += 1;
        return `id,date,account,type,symbol,underlying,quantity,price,commission,fees,amount,currency\nlock-${n},2024-03-0${(n % 9) + 1}T15:00:00Z,lock,BUY,SPY,SPY,1,500,0,0,-500,USD\n`;
      };
      const chain = () =>
        ['# symbol: XYZ', '# spot: 101.25', `# quoteTime: 2099-02-02T16:${String(n % 60).padStart(2, '0')}`, 'expiration,strike,right,openInterest,iv,bid,ask', '2099-02-20,100,C,1200,0.31,4.1,4.3', '2099-02-20,100,P,900,0.33,2.8,3.0'].join('\n');
      const requests: Array<{ kind: Answer['kind']; name: string; send: () => Promise<Response> }> = [
        { kind: 'read', name: 'health', send: () => fetch(`${server.apiBaseUrl}/health`) },
        { kind: 'read', name: 'summary', send: () => fetch(`${server.apiBaseUrl}/journal/summary`, { headers: { authorization: `Bearer ${key}` } }) },
        { kind: 'read', name: 'transactions', send: () => fetch(`${server.apiBaseUrl}/journal/transactions?limit=5`, { headers: { authorization: `Bearer ${lockOnlyKey}` } }) },
        { kind: 'read', name: 'imports', send: () => fetch(`${server.apiBaseUrl}/imports`, { headers: { authorization: `Bearer ${key}` } }) },
        { kind: 'read', name: 'gex', send: () => fetch(`${server.apiBaseUrl}/gex?symbol=SPX`, { headers: { authorization: `Bearer ${key}` } }) },
        { kind: 'read', name: 'settings', send: () => fetch(`${server.apiBaseUrl}/settings`, { headers: { authorization: `Bearer ${lockOnlyKey}` } }) },
        // A new scope each time: points computed cold, answered, and stored only once the lock is gone (issue 16).
        { kind: 'read', name: 'history', send: () => fetch(`${server.apiBaseUrl}/gex/history?symbol=SPX&minDte=${n % 60}&formula=per_1dollar`, { headers: { authorization: `Bearer ${key}` } }) },
        { kind: 'write', name: 'import', send: () => fetch(`${server.apiBaseUrl}/imports?broker=generic`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: csv() }) },
        { kind: 'write', name: 'undo', send: () => fetch(`${server.apiBaseUrl}/imports/${undoId}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } }) },
        { kind: 'write', name: 'settings', send: () => fetch(`${server.apiBaseUrl}/settings`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ rate: 0.04 + (n % 5) / 1000 }) }) },
        { kind: 'write', name: 'chain', send: () => fetch(`${server.apiBaseUrl}/chains`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' }, body: chain() }) },
        { kind: 'write', name: 'rotate', send: () => fetch(`${server.apiBaseUrl}/keys/rotate`, { method: 'POST', headers: { authorization: `Bearer ${key}` } }) },
      ];
      const ask = async (request: (typeof requests)[number]): Promise<Answer> => {
        const response = await request.send();
        const text = await response.text();
        const answer: Answer = { kind: request.kind, name: request.name, status: response.status, retryAfter: response.headers.get('retry-after'), atMs: Date.now() };
        if (response.status >= 400) answer.code = (JSON.parse(text) as { code?: string }).code ?? '';
        if (request.name === 'rotate' && response.status === 200) key = (JSON.parse(text) as { key: string }).key;
        if (request.name === 'import' && response.status === 201) undoId = (JSON.parse(text) as { id: number }).id;
        return answer;
      };

      const lock = holdWriteLock(dbPath, LOCK_SECONDS);
      holder = lock;
      await lock.locked;
      const lockedAt = new Date().toISOString();
      // Half-way through the lock the key has been used for 20 s and several flushes have run, all busy.
      let midLockStamp: string | null | undefined;
      const midLock = setTimeout(() => (midLockStamp = lastUsed('during-lock')), (LOCK_SECONDS / 2) * 1000);
      const during: Answer[] = [];
      let stop = false;
      let releasedAtMs = Infinity;
      const released = lock.released.then(() => {
        releasedAtMs = Date.now();
        stop = true;
      });
      // Four clients cycling through the requests until the lock is released.
      await Promise.all(
        [0, 1, 2, 3].map(async (offset) => {
          for (let i = offset; !stop; i += 4) {
            const request = requests[i % requests.length];
            if (request) during.push(await ask(request));
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }),
      );
      await released;
      clearTimeout(midLock);

      expect(server.child.exitCode, `the server is still running; stderr: ${server.stderr()}`).toBeNull();
      const tally: Record<string, number> = {};
      for (const answer of during) {
        const label = `${answer.kind} ${answer.status}${answer.code ? ` ${answer.code}` : ''}${answer.atMs > releasedAtMs ? ' (after the release)' : ''}`;
        tally[label] = (tally[label] ?? 0) + 1;
      }
      console.log(`during the ${LOCK_SECONDS} s lock: ${during.length} requests`, tally);
      expect(during.filter((a) => a.status >= 500 && !(a.status === 503 && a.code === 'DATABASE_BUSY')), 'no 5xx but 503 DATABASE_BUSY').toEqual([]);
      expect(during.filter((a) => a.kind === 'read' && a.status !== 200), 'reads are served from the WAL as usual').toEqual([]);
      // Writes answered while the lock was held (the last ones may get it just after the release).
      const writes = during.filter((a) => a.kind === 'write' && a.atMs < releasedAtMs);
      expect(writes.length).toBeGreaterThan(10);
      for (const answer of writes) {
        expect(answer, 'a write cannot get the lock: 503 DATABASE_BUSY with Retry-After').toMatchObject({ status: 503, code: 'DATABASE_BUSY' });
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
      expect(midLockStamp, 'half-way through the lock nothing had been written').toBeNull();
      expect(during.filter((a) => a.atMs > releasedAtMs && ![200, 201, 503].includes(a.status)), 'answers around the release').toEqual([]);

      // Afterwards: every kind of write goes through, and the usage gathered during the lock lands.
      const after: Answer[] = [];
      for (const request of requests) after.push(await ask(request));
      expect(after.map((a) => [a.name, a.status])).toEqual([
        ['health', 200], ['summary', 200], ['transactions', 200], ['imports', 200], ['gex', 200], ['settings', 200], ['history', 200],
        ['import', 201], ['undo', 200], ['settings', 200], ['chain', 201], ['rotate', 200],
      ]);
      await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 2));
      const stamp = lastUsed('during-lock');
      expect(stamp, 'the usage of the key used only during the lock was written after it').not.toBeNull();
      expect((stamp ?? '') > lockedAt, `${stamp} is after the lock was taken (${lockedAt})`).toBe(true);
      expect(server.child.exitCode).toBeNull();
    } finally {
      if (holder?.child.exitCode === null) holder.child.kill();
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 180_000);
});
