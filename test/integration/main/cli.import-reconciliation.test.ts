/**
 * `strikebook import` says what the web page says (docs/journal.md §Reconciliation): whether the file agrees with its own
 * figures and, where it does not, which line, by how much. The figures are the E*TRADE file's own Total: line, read here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../cli';
import { tempDir } from '../../helper';
import { BROKER_FIXTURES_LOCAL } from '../../paths';

const ETRADE = readFileSync(join(BROKER_FIXTURES_LOCAL, 'etrade_all_transactions_selfwritten.csv'), 'utf8');

describe('strikebook import: the file against its own figures', () => {
  it('agrees, then one row altered by 0.10 differs by 0.10 on the Total: line', () => {
    const total = /^Total:,(.*)$/m.exec(ETRADE)?.[1] ?? '';
    expect(total, 'the file states its total on a Total: line').toBe('3878.52');
    const dir = tempDir();
    const same = join(dir, 'etrade.csv');
    writeFileSync(same, ETRADE);
    const first = runCli(['import', same, '--data-dir', join(dir, 'a')]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('etrade.csv: agrees with the broker’s figures (1 of 1 agree)');

    // The short call's credit read 0.10 higher: the journal's cash is 0.10 above the file's total.
    const changedText = ETRADE.replace(',IWM,--,-1.0,1.20,119.49,', ',IWM,--,-1.0,1.20,119.59,');
    expect(changedText).not.toBe(ETRADE);
    const changed = join(dir, 'etrade-altered.csv');
    writeFileSync(changed, changedText);
    const second = runCli(['import', changed, '--data-dir', join(dir, 'b')]);
    expect(second.status, 'a difference is said, not a failure of the import').toBe(0);
    expect(second.stdout).toContain('etrade-altered.csv: differs from the broker’s figures (0 of 1 agree)');
    const line = ETRADE.split(/\r?\n/).findIndex((l) => l.startsWith('Total:')) + 1;
    expect(second.stdout).toContain(`  differs line ${line}: Total:: broker 3878.52, journal 3878.62, difference 0.10`);
  });
});
