import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../paths';
import { runCli, startServe } from '../../cli';

describe('strikebook serve (headless)', () => {
  it('prints the API URL and key file, answers on loopback, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    const server = await startServe(['--port', '0', '--data-dir', dataDir]);
    expect(server.port, '--port 0 picks a free port').toBeGreaterThan(0);
    expect(server.apiBaseUrl).toBe(`http://127.0.0.1:${server.port}/v1`);
    expect(server.keyFile).toBe(join(dataDir, 'api-key'));
    const key = readFileSync(server.keyFile, 'utf8').trim();
    expect(statSync(server.keyFile).mode & 0o777, 'the key file is private to the user').toBe(0o600);
    expect(Buffer.from(key.replace(/^sb_/, ''), 'base64url').length * 8, 'keys carry ≥ 128 random bits').toBeGreaterThanOrEqual(128);

    const health = await fetch(`${server.apiBaseUrl}/health`);
    expect(health.status).toBe(200);
    const unauthorized = await fetch(`${server.apiBaseUrl}/journal/summary`);
    expect(unauthorized.status).toBe(401);
    const summary = await fetch(`${server.apiBaseUrl}/journal/summary`, { headers: { authorization: `Bearer ${key}` } });
    expect(summary.status).toBe(200);

    // A request in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`${server.apiBaseUrl}/journal/transactions`, { headers: { authorization: `Bearer ${key}` } });
    server.child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect(await server.exited, 'exit code 0 after SIGTERM').toBe(0);
    expect(server.stderr()).toMatch(/closing the database/);

    // The database was closed properly: the WAL was checkpointed away and the file opens cleanly.
    expect(existsSync(join(dataDir, 'strikebook.db-wal')) && statSync(join(dataDir, 'strikebook.db-wal')).size > 0, 'no WAL left behind').toBe(false);
    const db = new Database(join(dataDir, 'strikebook.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();

    // A second start reuses the same key file.
    const again = await startServe(['--port', '0', '--data-dir', dataDir]);
    expect(readFileSync(again.keyFile, 'utf8').trim()).toBe(key);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  });

  it('keys create | list | revoke manage keys that the server accepts and refuses', async () => {
    const dataDir = tempDir();
    const created = runCli(['keys', 'create', '--name', 'script', '--data-dir', dataDir]);
    expect(created.status, created.stderr).toBe(0);
    const newKey = created.stdout.trim();
    expect(newKey).toMatch(/^sb_[\w-]{43}$/);
    const list = runCli(['keys', 'list', '--data-dir', dataDir]);
    expect(list.stdout).toMatch(/script/);
    expect(list.stdout).toMatch(/default/);
    expect(list.stdout, 'keys are never listed in plaintext').not.toContain(newKey);
    const db = new Database(join(dataDir, 'strikebook.db'), { readonly: true });
    const stored = db.prepare('SELECT hash FROM api_keys').all() as Array<{ hash: Buffer }>;
    db.close();
    expect(stored.every((row) => row.hash.length === 32), 'stored as SHA-256 hashes').toBe(true);

    const server = await startServe(['--port', '0', '--data-dir', dataDir]);
    const auth = { headers: { authorization: `Bearer ${newKey}` } };
    expect((await fetch(`${server.apiBaseUrl}/journal/summary`, auth)).status).toBe(200);
    const id = /^(\S+)\s+script/m.exec(list.stdout)?.[1] ?? '';
    const revoked = runCli(['keys', 'revoke', id.slice(0, 8), '--data-dir', dataDir]);
    expect(revoked.status, revoked.stderr).toBe(0);
    // The running server sees the revocation made by another process at once.
    const response = await fetch(`${server.apiBaseUrl}/journal/summary`, auth);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('refuses a bad --port and an unknown command with a message', () => {
    const bad = runCli(['serve', '--port', '70000', '--data-dir', tempDir()]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--port must be/);
    const unknown = runCli(['frobnicate', '--data-dir', tempDir()]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command/);
  });
});
