/**
 * Robinhood's corporate-action rows (docs/importers.md §Robinhood): shares (and option contracts) moved without a
 * price, the surrendered quantity written with an `S` (`300S`). The rows of one action come on one day under one code:
 * the old shares surrendered, the new received. Each pair becomes one SPLIT or SYMBOL_CHANGE with the action's terms,
 * its ratio the quantities' (new ÷ old, a fraction paid in cash counted in); the journal applies it at the start of
 * its day (docs/journal.md §Corporate actions).
 *
 * - SXCH (exchange: a new CUSIP, a symbol change, a SPAC's merger), MRGS (merger; MRGC its cash), SPR (split):
 *   paired surrender / receive → split, symbol_change or merger;
 * - OCA: an option contract's surrender / receive → a SYMBOL_CHANGE of the contract (the broker's name for the adjusted
 *   contract, which the journal follows);
 * - CIL `CIL on 0.5 @ $8.00 - NAKD`: a sale of the fraction at its cash, the fraction counted in its action's ratio;
 * - SDIV: a stock dividend's shares; REC: shares received free (zero cost basis).
 * A row without its counterpart is kept as OTHER (its cash still counts) with a warning naming what to enter by hand.
 */
import type { CorporateActionType } from '../../../src-shared/api/constants';
import { addDays } from '../../../src-shared/calendar';
import type { CorporateActionTerms, RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { absMinor, asMinor, toMinor, type Minor } from '../../../src-shared/money';
import { pricePerShareMinor } from '../common/amounts';
import { withOption, type OptionFields } from '../common/options';
import { transaction, type ResultCollector } from '../common/result';

/** The trans codes read here rather than row by row. */
export const ROBINHOOD_ACTION_CODES: ReadonlySet<string> = new Set(['SXCH', 'MRGS', 'MRGC', 'SPR', 'OCA', 'CIL', 'SDIV', 'REC']);
const PAIRED_CODES: ReadonlySet<string> = new Set(['SXCH', 'MRGS', 'SPR']);
/** A CIL pays the fraction of an action of the days before it (brokers pay it days later). */
const CIL_DAYS = 10;
const SOURCE = 'robinhood-csv';

export interface ActionRow {
  line: number;
  code: string;
  day: string;
  tradeDate: string;
  /** Upper case. */
  instrument: string;
  description: string;
  /** Unsigned. */
  quantity: number;
  /** `300S`: shares (or contracts) leaving the account. */
  surrendered: boolean;
  amountMinor: Minor;
  /** OCA: the contract named in the description. */
  option: OptionFields | null;
  rowId: string;
}

/** One action: the old shares, the new, what else the file says of it (cash, a fraction paid in cash). */
interface Pair {
  code: string;
  old: ActionRow | null;
  received: ActionRow | null;
  cashMinor: number;
  fraction: number;
  lines: number[];
}

/**
 * Pairs the surrendered and received rows of one day and code: a receipt takes the first surrender of the same key (the
 * same ticker; an option's expiration and right), else the first one left, in line order (the file lists a pair's
 * rows together). Linear: a file of 100,000 such rows pairs in one pass.
 */
function pairRows(rows: readonly ActionRow[], keyOf: (row: ActionRow) => string): Pair[] {
  const groups = new Map<string, ActionRow[]>();
  for (const row of rows) {
    const key = `${row.day}|${row.code}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  const pairs: Pair[] = [];
  for (const group of groups.values()) {
    const surrendered = group.filter((r) => r.surrendered).sort((a, b) => a.line - b.line);
    const used = new Set<ActionRow>();
    const byKey = new Map<string, ActionRow[]>();
    for (const row of surrendered) {
      const list = byKey.get(keyOf(row));
      if (list) list.push(row);
      else byKey.set(keyOf(row), [row]);
    }
    const cursors = new Map<string, number>();
    let anyCursor = 0;
    const nextOf = (list: readonly ActionRow[], start: number): number => {
      let at = start;
      while (at < list.length && used.has(list[at] as ActionRow)) at += 1;
      return at;
    };
    for (const received of group.filter((r) => !r.surrendered).sort((a, b) => a.line - b.line)) {
      const key = keyOf(received);
      const same = byKey.get(key) ?? [];
      const at = nextOf(same, cursors.get(key) ?? 0);
      cursors.set(key, at);
      let old = same[at];
      if (old === undefined) {
        anyCursor = nextOf(surrendered, anyCursor);
        old = surrendered[anyCursor];
      }
      if (old !== undefined) used.add(old);
      pairs.push({ code: received.code, old: old ?? null, received, cashMinor: 0, fraction: 0, lines: old === undefined ? [received.line] : [old.line, received.line] });
    }
    for (const old of surrendered) if (!used.has(old)) pairs.push({ code: old.code, old, received: null, cashMinor: 0, fraction: 0, lines: [old.line] });
  }
  return pairs;
}

function base(row: ActionRow, accountName: string, type: TransactionType, brokerRowId: string): RawTransaction {
  return transaction({
    accountName,
    brokerRowId,
    type,
    tradeDate: row.tradeDate,
    source: SOURCE,
    symbol: row.instrument,
    underlying: row.instrument,
    quantity: row.quantity,
    amountMinor: row.amountMinor,
    description: row.description,
  });
}

function terms(type: CorporateActionType, symbol: string, fields: Partial<CorporateActionTerms>): CorporateActionTerms {
  return { type, symbol, newSymbol: null, ratio: null, cashPerShareMinor: null, costFraction: null, quantity: null, ...fields };
}

/** The last pair (listed by day) received on or before `day`: binary search. */
function latestBy(pairs: readonly Pair[], day: string): Pair | undefined {
  let low = 0;
  let high = pairs.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((pairs[mid]?.received?.day ?? '') <= day) low = mid + 1;
    else high = mid;
  }
  return pairs[low - 1];
}

/** `CIL on 0.723 @ $100.00 - AMD`: the fraction and its price. */
function cilOf(description: string): { quantity: number; priceMinor: Minor } | null {
  const match = /CIL\s+on\s+([\d.,]+)\s*@\s*\$?([\d,]+(?:\.\d+)?)/i.exec(description);
  if (match === null) return null;
  const quantity = Number((match[1] ?? '').replace(/,/g, ''));
  const price = Number((match[2] ?? '').replace(/,/g, ''));
  return quantity > 0 && Number.isFinite(quantity) && price >= 0 && Number.isFinite(price) ? { quantity, priceMinor: toMinor(price) } : null;
}

/** Maps the corporate-action rows of a file (in any order) into `out`. */
export function mapRobinhoodActions(out: ResultCollector, rows: readonly ActionRow[], accountName: string): void {
  const pairs = pairRows(rows.filter((r) => PAIRED_CODES.has(r.code)), (row) => row.instrument);
  // The pairs by day and old ticker (a merger's cash), and by new ticker (a fraction's cash in lieu).
  const byOld = new Map<string, Pair>();
  const byReceived = new Map<string, Pair[]>();
  for (const pair of [...pairs].sort((a, b) => ((a.received?.day ?? '') < (b.received?.day ?? '') ? -1 : 1))) {
    if (pair.old !== null && pair.code === 'MRGS' && !byOld.has(`${pair.old.day}|${pair.old.instrument}`)) byOld.set(`${pair.old.day}|${pair.old.instrument}`, pair);
    if (pair.old !== null && pair.received !== null) {
      const list = byReceived.get(pair.received.instrument);
      if (list) list.push(pair);
      else byReceived.set(pair.received.instrument, [pair]);
    }
  }
  const lone = (row: ActionRow, why: string) => {
    out.warn(row.line, `${row.code} ${row.surrendered ? `${row.quantity}S` : row.quantity} ${row.instrument} ${why}: kept as OTHER (enter the corporate action by hand)`);
    out.add(row.line, base(row, accountName, 'OTHER', row.rowId));
  };

  // Cash of a merger: with the surrender of its shares, else a merger for cash alone.
  for (const cash of rows.filter((r) => r.code === 'MRGC')) {
    const pair = byOld.get(`${cash.day}|${cash.instrument}`);
    if (pair !== undefined) {
      pair.cashMinor += cash.amountMinor;
      pair.lines.push(cash.line);
    } else if (cash.quantity > 0) {
      pairs.push({ code: 'MRGS', old: { ...cash, surrendered: true }, received: null, cashMinor: cash.amountMinor, fraction: 0, lines: [cash.line] });
    } else {
      lone(cash, 'without the surrendered shares');
    }
  }

  // Cash in lieu: a sale of the fraction; the fraction was part of what its action delivered.
  for (const row of rows.filter((r) => r.code === 'CIL')) {
    const cil = cilOf(row.description);
    if (cil === null) {
      lone(row, `without "CIL on <shares> @ <price>" in its description ("${row.description}")`);
      continue;
    }
    const pair = latestBy(byReceived.get(row.instrument) ?? [], row.day);
    if (pair !== undefined && (pair.received?.day ?? '') >= addDays(row.day, -CIL_DAYS)) pair.fraction += cil.quantity;
    const sale = base(row, accountName, 'SELL', row.rowId);
    sale.quantity = cil.quantity;
    sale.priceMinor = absMinor(row.amountMinor) > 0 ? pricePerShareMinor(absMinor(row.amountMinor), cil.quantity, 1) : cil.priceMinor;
    sale.description = `${row.description} (cash in lieu of a fraction)`;
    out.add(row.line, sale);
  }

  for (const pair of pairs) {
    const { old, received } = pair;
    if (old !== null && received !== null) {
      emitPair(out, pair, old, received, accountName);
    } else if (received !== null) {
      if (pair.code === 'SPR') {
        // A split's new shares without the old ones' row: the change of the position, as SPL writes it.
        const tx = base(received, accountName, 'SPLIT', received.rowId);
        out.warn(received.line, `SPR of ${received.instrument} without the surrendered row: read as ${received.quantity} shares added by a split; check it`);
        out.add(received.line, tx);
      } else {
        lone(received, 'received without the surrendered shares');
      }
    } else if (old !== null) {
      if (pair.cashMinor !== 0 && old.quantity > 0) {
        // A merger for cash alone: the shares are sold at the cash.
        const tx = base(old, accountName, 'SYMBOL_CHANGE', pair.lines.length > 1 ? `${old.rowId}+cash` : old.rowId);
        tx.previousSymbol = old.instrument;
        tx.amountMinor = asMinor(pair.cashMinor);
        tx.corporateAction = terms('merger', old.instrument, { cashPerShareMinor: asMinor(pair.cashMinor / old.quantity) });
        out.add(Math.min(...pair.lines), tx);
        if (pair.lines.length > 1) out.merge(pair.lines, `merger of ${old.instrument} for cash as one SYMBOL_CHANGE`);
      } else {
        lone(old, 'surrendered without the received shares');
      }
    }
  }

  // Option contracts: the broker's adjusted contract for the old one.
  const options = pairRows(rows.filter((r) => r.code === 'OCA'), (row) => (row.option === null ? '' : `${row.option.expiration}|${row.option.right}`));
  for (const pair of options) {
    const { old, received } = pair;
    if (old === null || received === null || old.option === null || received.option === null) {
      const row = old ?? received;
      if (row !== null) lone(row, row.option === null ? 'without an option contract in its description' : 'without its counterpart');
      continue;
    }
    const tx = withOption(base(received, accountName, 'SYMBOL_CHANGE', `${old.rowId}+${received.rowId}`), received.option);
    // The contract's underlying is the ticker the row names (an adjusted root, DKNG1, is no ticker).
    if (received.instrument !== '') tx.underlying = received.instrument;
    tx.previousSymbol = old.option.symbol;
    tx.description = `${old.description} / ${received.description}`;
    out.add(Math.min(old.line, received.line), tx);
    out.merge([old.line, received.line], `OCA: ${old.option.symbol} and ${received.option.symbol} as one SYMBOL_CHANGE`);
  }

  for (const row of rows.filter((r) => r.code === 'SDIV' || r.code === 'REC')) {
    if (!(row.quantity > 0) || row.surrendered) {
      lone(row, 'without shares received');
      continue;
    }
    const tx = base(row, accountName, 'SPLIT', row.rowId);
    tx.corporateAction = terms(row.code === 'SDIV' ? 'stock_dividend' : 'free_shares', row.instrument, { quantity: row.quantity });
    out.add(row.line, tx);
  }
}

function emitPair(out: ResultCollector, pair: Pair, old: ActionRow, received: ActionRow, accountName: string): void {
  const renamed = old.instrument !== received.instrument;
  const ratio = old.quantity > 0 ? (received.quantity + pair.fraction) / old.quantity : null;
  const oneForOne = ratio !== null && Math.abs(ratio - 1) < 1e-9;
  let type: CorporateActionType;
  if (pair.code === 'SPR') type = 'split';
  // The same ticker under a new CUSIP: nothing changes unless the count does (a split in all but name).
  else if (!renamed) type = oneForOne ? 'symbol_change' : 'split';
  else if (pair.code === 'MRGS' || !oneForOne || pair.cashMinor !== 0) type = 'merger';
  else type = 'symbol_change';
  const moves = type !== 'split';
  const tx = base(received, accountName, moves ? 'SYMBOL_CHANGE' : 'SPLIT', `${old.rowId}+${received.rowId}`);
  // A SPLIT's quantity is the change of the position; a SYMBOL_CHANGE's the shares received.
  tx.quantity = moves ? received.quantity : received.quantity - old.quantity;
  if (renamed || moves) tx.previousSymbol = old.instrument;
  tx.amountMinor = asMinor(pair.cashMinor);
  tx.description = `${old.description} / ${received.description}`;
  tx.corporateAction = terms(type, old.instrument, {
    newSymbol: renamed ? received.instrument : null,
    ratio,
    cashPerShareMinor: pair.cashMinor !== 0 && old.quantity > 0 ? asMinor(pair.cashMinor / old.quantity) : null,
  });
  out.add(Math.min(...pair.lines), tx);
  out.merge(pair.lines, `${pair.code}: ${old.quantity} ${old.instrument} → ${received.quantity} ${received.instrument} as one ${tx.type} (${type.replace('_', ' ')}${ratio === null ? '' : `, ratio ${Number(ratio.toFixed(6))}`})`);
}
