/**
 * The lake's rows: a stored snapshot as contracts and levels columns, the journal as transactions columns, and a
 * contracts file read back as a snapshot, every value checked (docs/research.md §Reading a lake back).
 */
import { dateToUtcMs, DAY_MS, utcDateOf } from '../../src-shared/calendar';
import type { ContractMeasures } from '../../src-shared/exposure/contract-greeks';
import type { GexHistoryPoint } from '../../src-shared/exposure/index';
import type { ChainSnapshot, OptionContract, SnapshotSourceId } from '../../src-shared/exposure/model';
import { SNAPSHOT_SOURCES } from '../../src-shared/api/constants';
import { DEFAULT_FORMULA } from '../../src-shared/api/constants';
import type { Trade } from '../../src-shared/journal/trades';
import type { LakeSnapshotHead, LakeTransactionRow } from '../db/lake';
import { contractProblem, headProblems } from '../chains/common';
import type { ColumnValues } from './parquet';
import { TRANSACTIONS, type SnapshotFileMeta } from './tables';

type Columns = Record<string, ColumnValues>;

/** A contract's volume, where the snapshot's model has one (null until the chain sources store it). */
function volumeOf(contract: OptionContract): number | null {
  return 'volume' in contract && typeof contract.volume === 'number' ? contract.volume : null;
}

export function contractsColumns(head: LakeSnapshotHead, contracts: readonly OptionContract[], measures: ContractMeasures): Columns {
  const n = contracts.length;
  return {
    snapshot_id: new Array<number>(n).fill(head.id),
    quote_time: new Array<string>(n).fill(head.quoteTime),
    spot: new Array<number>(n).fill(head.spot),
    expiration: contracts.map((c) => c.expiration),
    strike: contracts.map((c) => c.strike),
    right: contracts.map((c) => c.right),
    open_interest: contracts.map((c) => c.openInterest),
    iv: contracts.map((c) => c.iv),
    bid: contracts.map((c) => c.bid),
    ask: contracts.map((c) => c.ask),
    volume: contracts.map(volumeOf),
    delta: measures.delta,
    gamma: measures.gamma,
    root: contracts.map((c) => c.root),
    multiplier: contracts.map((c) => c.multiplier),
    dte: measures.dte,
  };
}

/** The snapshot's default-scope /gex/history point as one row. */
export function levelsColumns(head: LakeSnapshotHead, point: GexHistoryPoint, expirations: readonly string[]): Columns {
  return {
    snapshot_id: [head.id],
    quote_time: [head.quoteTime],
    spot: [point.spot],
    total_gex: [point.totalGEX],
    gamma_zone: [point.gammaZone],
    gamma_inflection: [point.gammaInflection],
    call_wall_strike: [point.callWall?.strike ?? null],
    call_wall_gex: [point.callWall?.gex ?? null],
    put_wall_strike: [point.putWall?.strike ?? null],
    put_wall_gex: [point.putWall?.gex ?? null],
    formula: [DEFAULT_FORMULA],
    expirations: [expirations.join(',')],
  };
}

/** Transactions columns that are not the stored row's column of the same name: flags stored as 0/1, money in minor units. */
const TRANSACTION_VALUES: Partial<Record<string, (row: LakeTransactionRow) => string | number | boolean | null>> = {
  is_option: (row) => row.is_option === 1,
  inferred: (row) => row.inferred === 1,
  price: (row) => row.price_minor,
  amount: (row) => row.amount_minor,
  commission: (row) => row.commission_minor,
  fees: (row) => row.fees_minor,
};

/** The stored row's column `name`; a column the table lists and the row lacks is a mistake of ours, said at once. */
function storedValue(row: LakeTransactionRow, name: string): string | number | boolean | null {
  const fields: Record<string, unknown> = row;
  const value = fields[name];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  throw new Error(`transactions.parquet: the stored transaction has no column ${name}`);
}

/** The journal's transactions as the columns of TRANSACTIONS (tables.ts), which name them. */
export function transactionsColumns(rows: readonly LakeTransactionRow[]): Columns {
  const columns: Columns = {};
  for (const { name } of TRANSACTIONS) {
    const value = TRANSACTION_VALUES[name];
    columns[name] = rows.map((row) => (value === undefined ? storedValue(row, name) : value(row)));
  }
  return columns;
}

/**
 * The journal's trades as rows, oldest opened first (a trade opened before history at its first close), then by id;
 * `tagsOf` gives a trade's tags (its annotation's).
 */
export function tradesColumns(book: readonly Trade[], tagsOf: (id: string) => readonly string[] = () => []): Columns {
  const trades = [...book].sort((a, b) => {
    const at = (t: Trade) => t.openedAt ?? t.closedAt ?? '';
    return at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const pick = <T extends string | number | boolean | null>(get: (trade: Trade) => T): T[] => trades.map(get);
  return {
    id: pick((t) => t.id),
    account_id: pick((t) => t.accountId),
    account_name: pick((t) => t.accountName),
    currency: pick((t) => t.currency),
    underlying: pick((t) => t.underlying),
    strategy: pick((t) => t.strategy),
    status: pick((t) => t.status),
    outcome: pick((t) => t.outcome),
    opened_before_history: pick((t) => t.openedBeforeHistory),
    opened_at: pick((t) => t.openedAt),
    open_day: pick((t) => t.openDay),
    closed_at: pick((t) => t.closedAt),
    close_day: pick((t) => t.closeDay),
    days_held: pick((t) => t.daysHeld),
    legs: pick((t) => t.legs.length),
    rolls: pick((t) => t.rolls),
    credit: pick((t) => t.creditMinor),
    max_profit: pick((t) => t.maxProfitMinor),
    max_loss: pick((t) => t.maxLossMinor),
    collateral: pick((t) => t.collateralMinor),
    pnl: pick((t) => t.pnlMinor),
    option_pl: pick((t) => t.optionPLMinor),
    // A closed trade's ratios as built (an open one's move with its marks: not in a repeatable file).
    return_on_collateral: pick((t) => (t.status === 'closed' ? t.returnOnCollateral : null)),
    pct_of_max_profit: pick((t) => (t.status === 'closed' ? t.pctOfMaxProfit : null)),
    dte_at_entry: pick((t) => t.dteAtEntry),
    delta_at_entry: pick((t) => t.deltaAtEntry),
    entry_quote_time: pick((t) => t.entrySnapshot?.quoteTime ?? null),
    entry_spot: pick((t) => t.entrySnapshot?.spot ?? null),
    gamma_zone_at_entry: pick((t) => t.levelsAtEntry?.gammaZone ?? null),
    put_wall_at_entry: pick((t) => t.levelsAtEntry?.putWall ?? null),
    gamma_flip_at_entry: pick((t) => t.levelsAtEntry?.gammaFlip ?? null),
    call_wall_at_entry: pick((t) => t.levelsAtEntry?.callWall ?? null),
    strike_vs_levels: pick((t) => t.levelsAtEntry?.shortStrikeVs ?? null),
    campaign_id: pick((t) => t.campaignId),
    tags: pick((t) => JSON.stringify(tagsOf(t.id))),
  };
}

// ---------------------------------------------------------------- reading back

/** Problems listed for one refused file: enough to see what is wrong, never a line per row of a broken file. */
const MAX_ROW_PROBLEMS = 20;

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function dateText(value: unknown): string | null {
  if (!(value instanceof Date) || !Number.isFinite(value.getTime()) || value.getTime() % DAY_MS !== 0) return null;
  const text = utcDateOf(value.getTime());
  return Number.isFinite(dateToUtcMs(text)) ? text : null;
}

function isSource(source: string): source is SnapshotSourceId {
  return (SNAPSHOT_SOURCES as readonly string[]).includes(source);
}

/**
 * A contracts file's rows as the snapshot they were exported from, row group by row group (add), then the snapshot
 * or the problems that refuse it (finish). The lake is untrusted input: every row must belong to the footer's snapshot
 * (id, quote time, spot) and hold a contract a chain file could (the chain parsers' own checks, chains/common.ts:
 * contractProblem for the ranges, headProblems for the symbol's grammar, the spot and the quote time's years; a real
 * expiration date, C or P, an option root). Row numbers are 1-based, as a person counts them in a table viewer. A
 * contract twice is refused, as the chain parsers refuse it.
 */
export class SnapshotRows {
  private readonly problems: string[] = [];
  private readonly contracts: OptionContract[] = [];
  private readonly seen = new Map<string, number>();
  private readonly quoteMs: number;
  private readonly snapshotId: bigint;
  private rows = 0;

  constructor(private readonly meta: SnapshotFileMeta) {
    if (!isSource(meta.source)) this.problems.push(`source "${meta.source}" is not one of ${SNAPSHOT_SOURCES.join(', ')}`);
    for (const { message } of headProblems(meta)) this.problems.push(message);
    this.quoteMs = Date.parse(meta.quoteTime);
    this.snapshotId = BigInt(meta.snapshotId);
  }

  private note(row: number, message: string): void {
    if (this.problems.length < MAX_ROW_PROBLEMS) this.problems.push(`row ${row}: ${message}`);
  }

  /** The rows of one row group, the first of them row `start + 1` of the file. */
  add(start: number, rows: ReadonlyArray<Record<string, unknown>>): void {
    const { meta } = this;
    this.rows += rows.length;
    rows.forEach((row, index) => {
      const at = start + index + 1;
      let sound = true;
      const note = (message: string) => {
        sound = false;
        this.note(at, message);
      };
      if (row.snapshot_id !== this.snapshotId) note(`snapshot_id ${String(row.snapshot_id)} is not the file's snapshot ${meta.snapshotId}`);
      if (!(row.quote_time instanceof Date) || row.quote_time.getTime() !== this.quoteMs) note(`quote_time is not the file's ${meta.quoteTime}`);
      if (row.spot !== meta.spot) note(`spot ${String(row.spot)} is not the file's ${meta.spot}`);
      const expiration = dateText(row.expiration);
      const { strike, right, open_interest: openInterest, iv, bid, ask, root, multiplier, volume } = row;
      if (volume !== null && (!finite(volume) || volume < 0)) note(`volume ${String(volume)} is not a number ≥ 0`);
      if (expiration === null) note('expiration is not a date');
      if (!finite(strike) || !(strike > 0)) note(`strike ${String(strike)} is not a positive number`);
      if (right !== 'C' && right !== 'P') note(`right "${String(right)}" is not C or P`);
      if (typeof root !== 'string' || !/^[A-Z0-9.^/_-]{1,12}$/.test(root)) note(`root "${String(root).slice(0, 40)}" is not an option root`);
      if (!finite(multiplier) || !(multiplier > 0)) note(`multiplier ${String(multiplier)} is not a positive number`);
      for (const [name, value] of [['open_interest', openInterest], ['iv', iv], ['bid', bid], ['ask', ask]] as const) {
        if (!finite(value) || value < 0) note(`${name} ${String(value)} is not a number ≥ 0`);
      }
      if (expiration !== null && finite(strike) && (right === 'C' || right === 'P') && typeof root === 'string' && finite(multiplier) && finite(openInterest) && finite(iv) && finite(bid) && finite(ask)) {
        // A volume goes back only where the snapshot had one (a chain without volume is stored as it was).
        const contract: OptionContract = { root, expiration, strike, right, openInterest, iv, bid, ask, multiplier, ...(finite(volume) ? { volume } : {}) };
        // The ranges a chain file's contract must lie in, for a row that is otherwise sound (one message a row).
        const insane = sound ? contractProblem(contract) : null;
        if (insane !== null) note(insane);
        const key = `${root}|${expiration}|${strike}|${right}`;
        const first = this.seen.get(key);
        if (first !== undefined) note(`the same contract as row ${first} (${root} ${expiration} ${strike} ${right})`);
        else this.seen.set(key, at);
        if (this.problems.length === 0) this.contracts.push(contract);
      }
    });
  }

  /** The snapshot, or the problems of the file (at most MAX_ROW_PROBLEMS). */
  finish(): { ok: true; snapshot: ChainSnapshot } | { ok: false; problems: string[] } {
    const { meta, problems } = this;
    if (this.rows !== meta.rows) problems.push(`${this.rows} rows, but the footer says ${meta.rows}`);
    if (this.rows === 0) problems.push('no contracts');
    if (problems.length > 0 || !isSource(meta.source)) return { ok: false, problems: problems.slice(0, MAX_ROW_PROBLEMS) };
    return { ok: true, snapshot: { symbol: meta.symbol, spot: meta.spot, quoteTime: meta.quoteTime, source: meta.source, contracts: this.contracts } };
  }
}

/** A contracts file's rows read whole (one row group) as its snapshot: SnapshotRows over one group. */
export function snapshotFromRows(meta: SnapshotFileMeta, rows: ReadonlyArray<Record<string, unknown>>): { ok: true; snapshot: ChainSnapshot } | { ok: false; problems: string[] } {
  const reader = new SnapshotRows(meta);
  reader.add(0, rows);
  return reader.finish();
}
