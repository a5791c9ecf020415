/**
 * What the lines above an E*TRADE file's header say: the account, the period and (newer layout) the net cash total
 * of the rows, stated for reconciliation.
 */
import { parseMoney } from '../common/cells';
import type { CsvRecord } from '../common/csv';
import { dayEndIso, dayStartIso, latestTradeDate, moneyStatement } from '../common/statements';
import { mdyToYmd } from '../common/dates';
import type { ResultCollector } from '../common/result';

/** The account the preamble names: `For Account:,####1234`, `Account Activity for <name> from ...`, `Account <id> | ...`. */
export function preambleAccount(cells: readonly string[][]): string | null {
  for (const record of cells) {
    if (/^for account:?$/i.test(record[0]?.trim() ?? '')) return record[1]?.trim() ?? null;
    const line = record.join(',').trim();
    const named = accountOfLine(line);
    if (named !== null) return named;
  }
  return null;
}

/**
 * `Account Activity for <name> from ...`, `Account <id> | ...` → the name; null for other lines. Cut at the first
 * ` from ` or `|` by hand: `\s+(.+?)(?:\s+from\s+|\s*\|)` tried every split of a run of blanks (docs/importers.md §Linear time).
 */
function accountOfLine(line: string): string | null {
  const head = /^Account(?: Activity for)?\s/i.exec(line);
  if (head === null) return null;
  const rest = line.slice(head[0].length);
  const bar = rest.indexOf('|');
  const from = rest.search(/\sfrom\s/i);
  const ends = [bar, from].filter((at) => at >= 0);
  if (ends.length === 0) return null;
  const name = rest.slice(0, Math.min(...ends)).trim();
  return name === '' ? null : name;
}

/** `Account Activity for <name> from 01/01/26 to 03/31/26` → the period's first and last days. */
function preamblePeriod(preamble: readonly CsvRecord[]): { from: string; to: string } | null {
  for (const record of preamble) {
    const match = /\sfrom\s+(\d{1,2}\/\d{1,2}\/\d{2,4})\s+to\s+(\d{1,2}\/\d{1,2}\/\d{2,4})\s*$/i.exec(record.cells.join(',').trim());
    const from = match?.[1] === undefined ? null : mdyToYmd(match[1]);
    const to = match?.[2] === undefined ? null : mdyToYmd(match[2]);
    if (from !== null && to !== null) return { from, to };
  }
  return null;
}

/**
 * The newer layout's `Total:,3878.52` above its header: the net cash of the rows listed (docs/importers.md
 * §Reconciliation), over the period its preamble names (else every row of the file, up to the last).
 */
export function stateTotal(out: ResultCollector, preamble: readonly CsvRecord[], accountName: string): void {
  const record = preamble.find((candidate) => /^total:?$/i.test(candidate.cells[0]?.trim() ?? ''));
  if (record === undefined) return;
  const value = parseMoney(record.cells[1] ?? '');
  if (!value.ok || value.value === null) {
    out.warn(record.line, `"Total:" is not an amount ("${record.cells[1] ?? ''}"): the file's total is not checked`);
    return;
  }
  const period = preamblePeriod(preamble);
  const asOf = period === null ? latestTradeDate(out.transactions) : dayEndIso(period.to);
  if (asOf === null) return;
  out.state(moneyStatement({ what: 'cash_total', label: 'Total:', line: record.line, asOf, from: period === null ? null : dayStartIso(period.from), currency: 'USD', accountName, valueMinor: value.value }));
}
