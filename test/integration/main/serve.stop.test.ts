/**
 * SIGTERM ends `strikebook serve` within 2 s even while it parses an upload (docs/decisions.md §Jobs; issue 16,
 * finding 1): the parse is stopped (its flag, else its thread), its request answered, the database closed. Before,
 * the process waited for the parse to end (a pathological file: minutes).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../cli';
import { tempDir } from '../../paths';
import { badImport, send, sleep } from '../../uploads';

describe('strikebook serve stopped mid-parse', () => {
  it('exits on SIGTERM without waiting for the parse, answers the upload, and leaves the database whole', async () => {
    const dataDir = tempDir();
    const server = await startServe(['--port', '0', '--data-dir', dataDir]);
    const key = readFileSync(server.keyFile, 'utf8').trim();
    // A file whose parse takes many seconds here (every one of its 1.2 million rows is an error).
    const upload = send(server.port, key, '/v1/imports?broker=generic', badImport(30));
    await upload.sent;
    await sleep(500);
    server.child.kill('SIGTERM');
    const code = await server.exited;
    expect(code, server.stderr()).toBe(0);
    // No stopwatch (how fast it stops is the bench's business): a serve that never stops is caught by the test's
    // timeout, and that the parse was stopped rather than finished is the 503 JOB_STOPPED below.
    const answer = await upload.answer.catch(() => null);
    if (answer !== null) expect([answer.status, (JSON.parse(answer.body) as { code: string }).code], 'the upload was answered, not dropped').toEqual([503, 'JOB_STOPPED']);
    const db = new Database(join(dataDir, 'strikebook.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare('SELECT COUNT(*) FROM imports').pluck().get(), 'nothing of the file stored').toBe(0);
    db.close();
  }, 180_000);
});
