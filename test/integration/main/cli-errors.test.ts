/**
 * The CLI's own mapping of what went wrong (src-main/cli-errors.ts): a refused file is named with the service's
 * message and its lines, the other files of the command still run, and the command exits 1; a bad option is 2.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUSY_MESSAGE, domainFailure, thrownFailure } from '../../../src-main/cli-errors';
import { DatabaseBusyError, StorageFullError } from '../../../src-main/db/writes';
import { runCli } from '../../cli';
import { REPO_ROOT, tempDir } from '../../paths';

const PFE = join(REPO_ROOT, 'test/fixtures/brokers/tastytrade_v2_21col_PFE_binnaculum.csv');

describe('strikebook import and chain import: failures', () => {
  it('a file with a bad row: its name, the summary and the line; the good file beside it is imported; exit 1', () => {
    const dir = tempDir();
    const lines = readFileSync(join(REPO_ROOT, 'test/fixtures/brokers/tastytrade_v2_21col_TSLL_wheel_binnaculum.csv'), 'utf8').split('\n');
    // The fifth line's quantity becomes text.
    lines[4] = (lines[4] ?? '').replace(/,(\d+),/, ',many,');
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, lines.join('\n'));
    const result = runCli(['import', bad, PFE, '--data-dir', join(dir, 'data')]);
    expect(result.status, result.stderr).toBe(1);
    const [first, second] = result.stderr.split('\n');
    expect(first).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: The tastytrade file has 1 problem \\(first: line 5: .+\\); nothing was imported\\.$`));
    expect(second).toMatch(/^ {2}line 5: /);
    expect(result.stdout, 'the next file still ran').toMatch(/tastytrade_v2_21col_PFE_binnaculum\.csv: tastytrade, \d+ rows, \d+ imported/);
  });

  it('a chain with nothing unexpired is refused with the reason; an unknown --format is a usage error (2)', () => {
    const dir = tempDir();
    const chain = join(dir, 'old.csv');
    writeFileSync(chain, ['# symbol: XYZ', '# spot: 101.25', '# quoteTime: 2024-03-01T16:00:00Z', 'expiration,strike,right,openInterest,iv,bid,ask', '2024-02-16,100,C,1200,0.31,4.1,4.3'].join('\n'));
    const refused = runCli(['chain', 'import', chain, '--data-dir', join(dir, 'data')]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/old\.csv: The chain was not stored: nothing in the XYZ chain is unexpired at its quote time/);
    const format = runCli(['chain', 'import', chain, '--format', 'xml', '--data-dir', join(dir, 'data')]);
    expect(format.status).toBe(2);
    expect(format.stderr).toMatch(/unknown format "xml"; one of auto, cboe-csv, cboe-json, schwab-json, yfinance-csv, generic-csv, generic-json/);
  });
});

describe('strikebook serve on a port already in use', () => {
  it('prints one line naming the port and what to do (--port 0 or another), and exits 1 without a trace', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const address = holder.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const result = runCli(['serve', '--port', String(port), '--data-dir', tempDir()]);
      expect(result.status, result.stderr).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines, 'one line').toHaveLength(1);
      expect(lines[0]).toBe(`strikebook: port ${port} on 127.0.0.1 is already in use (another Strikebook, or another program, listens there); stop it, or start on another port: --port 0 takes any free port, --port <number> a port of your choice.`);
      expect(result.stderr, 'no stack trace').not.toMatch(/EADDRINUSE|\n\s+at |node:/);
      expect(result.stdout, 'no banner').toBe('');
    } finally {
      holder.close();
    }
  });
});

describe('the CLI mapper', () => {
  it('maps a busy database to its message and a domain error to the service’s sentence, both exit 1', () => {
    expect(thrownFailure(new DatabaseBusyError())).toEqual({ lines: [BUSY_MESSAGE], exitCode: 1 });
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    expect(thrownFailure(full), 'a full disk says so, not SQLite\'s words').toEqual({ lines: [new StorageFullError().message], exitCode: 1 });
    expect(domainFailure({ kind: 'not-found', what: 'import', id: 7 })).toEqual({ lines: ['No import with id 7.'], exitCode: 1 });
    expect(domainFailure({ kind: 'file-refused', unsupported: true, detail: 'This is a PNG image, not a CSV export.', problems: [{ line: 1, message: 'a picture' }, { line: null, message: 'whole file' }] })).toEqual({
      lines: ['This is a PNG image, not a CSV export.', '  line 1: a picture', '  whole file'],
      exitCode: 1,
    });
  });
});
