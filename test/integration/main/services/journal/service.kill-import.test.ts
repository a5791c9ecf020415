import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../../../../paths';
import { runCli } from '../../../../cli';

describe('atomic imports (docs/architecture.md §Reliability and security)', () => {
  it('a process killed in the middle of an import leaves the store exactly as before it', async () => {
    const dataDir = tempDir();
    const baseline = runCli(['import', join(REPO_ROOT, 'test/fixtures/brokers/tastytrade_v2_21col_PFE_binnaculum.csv'), '--data-dir', dataDir]);
    expect(baseline.status, baseline.stderr).toBe(0);
    const snapshot = () => {
      const db = new Database(join(dataDir, 'strikebook.db'), { readonly: true });
      const state = {
        transactions: (db.prepare('SELECT COUNT(*) AS n FROM transactions').get() as { n: number }).n,
        imports: (db.prepare('SELECT COUNT(*) AS n FROM imports').get() as { n: number }).n,
        accounts: (db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n,
        integrity: db.pragma('integrity_check', { simple: true }),
      };
      db.close();
      return state;
    };
    const before = snapshot();
    expect(before.transactions).toBeGreaterThan(0);

    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/run-ts.mjs'), join(REPO_ROOT, 'test/integration/main/services/journal/kill-import.child.ts'), dataDir]);
    let out = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child never reached halfway: ${out}`)), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('halfway')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(out, 'the import was cut off before it finished').not.toContain('done');

    expect(snapshot(), 'same rows, imports and accounts; the file is intact').toEqual(before);
    // And the data folder is still usable: the same import runs to completion afterwards.
    expect(readFileSync(join(dataDir, 'api-key'), 'utf8').trim()).toMatch(/^sb_/);
  });
});
