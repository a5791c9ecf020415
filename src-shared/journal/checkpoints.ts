/**
 * Checkpoints of a ledger build (docs/journal.md §Checkpoints): at day boundaries, every so many rows, what the book
 * holds then (open lots, the slots' campaigns, the openings the history lacks). The book at a past instant is the
 * nearest checkpoint before it plus the rows after it, replayed: a few thousand rows instead of the whole journal.
 *
 * A checkpoint keeps only what can still change. A campaign that is neither open, nor the last of its slot, nor the last
 * to hold its shares never changes again (fees attach to the open campaign, else the last one; dividends to the one
 * holding the shares, else the last holder: campaigns.ts `dividendCampaign`), so it is the complete ledger's own record;
 * the others are kept as numbers and a count of their legs (the legs of a campaign only grow: the first N of the complete
 * record's are the campaign's legs then). Positions, slots and campaigns are packed in typed arrays that name instruments,
 * slots and strings by their index in tables the checkpoints share: a 100,000-row journal holding 700 positions keeps
 * 50 checkpoints in about 2 MB.
 */
import type { AccountId, Ticker } from '../ids';
import type { CollateralBasis } from './collateral';
import type { CampaignRecord, CampaignSlot, SlotState } from './campaigns';
import type { LedgerWarnings } from './records';
import type { Lot, OpenPosition, Position } from './lots';
import { occSymbol, type OptionRight, type PositionInstrument } from './model';
import { Records, Table } from './packed';
import type { RollRecord } from './rolls';
import type { UnmatchedOpening } from './unmatched';

export interface LedgerCheckpoint {
  /** Rows [0, position) of the processing order are in it; row `position` is the first of `day`. */
  position: number;
  day: string;
  lastInstantMs: number;
  /** Campaigns opened before it (indexes into the complete ledger's campaign list). */
  campaignCount: number;
  /** Open positions: where each one's state is in the codec's pool of position states (a state unchanged since the previous checkpoint is shared). */
  positions: Int32Array;
  /** Slots with a campaign: [slot, current campaign, last campaign, last holder of shares (−1: none), the day its shares left (−1: none)]… */
  slots: Int32Array;
  /** Campaigns that may still change: offsets of their states in the codec's pool of campaign states (see packLive). */
  live: Int32Array;
  /** Per live campaign, the rolls of its days before the checkpoint (filled in once the build has matched them). */
  liveRolls: Int32Array;
  /** The openings the history lacked then (copies), and the warning counts. */
  unmatched: UnmatchedOpening[];
  warnings: LedgerWarnings;
  /**
   * What a live ledger resumes from here needs beyond the book (LiveLedger.resume): the dividends outside campaigns so
   * far (copies), the closes measured under Reg T, and how many positions the build had seen (PositionBook.created).
   */
  accountDividends: Array<{ accountId: AccountId; currency: string; dividendsMinor: number }>;
  regTCloses: number;
  positionsSeen: number;
  /**
   * Every row before it is of an earlier day than its own, and every row after of its day or later (a resume reads the
   * rows from its day on: LiveLedger.resumePoint). Not so where a date-only row counts at its day's UTC start, before
   * rows of the day before.
   */
  apart: boolean;
}

/** What a build with checkpoints keeps beside the ledger: the processing order and the checkpoints. */
export interface LedgerCheckpoints {
  /** Transaction ids in processing order. */
  ids: string[];
  /** The instant every SAMPLE_EVERY-th row counts at (row k × SAMPLE_EVERY): where the rows of an instant end, within a sample. */
  samplesMs: Float64Array;
  /** The input index of each row in processing order (the journal turns it into `rowids` and drops it). */
  order?: Uint32Array;
  /** The stored row of each position (SQLite rowid; −1 for rows that are not stored), when the journal keeps them. */
  rowids?: Int32Array;
  checkpoints: LedgerCheckpoint[];
  codec: CheckpointCodec;
}

/** The book of a ledger at an instant: positions, campaigns and rolls (no day figures: those are the complete ledger's). */
export interface BookLedger {
  reportingCurrency: string;
  campaigns: CampaignRecord[];
  rolls: RollRecord[];
  positions: OpenPosition[];
  unmatched: UnmatchedOpening[];
  lastInstantMs: number;
}

/** What never changes about a position: its instrument, and the slot it counts in (a rename moves it). */
interface Instrument extends PositionInstrument {
  slotUnderlying: string;
}

/** The value at an index the codec made: a missing one is a bug (the tables only grow while the build packs). */
function valueAt<T>(table: Table<T>, index: number): T {
  const value = table.values[index];
  if (value === undefined) throw new Error(`checkpoints: no value at ${index}`);
  return value;
}

/** Rows per sampled instant (LedgerCheckpoints.samplesMs): a replay reads at most this many rows past its instant. */
export const SAMPLE_EVERY = 32;

/** The end of the rows that count by `asOfMs`: a position at or past the last of them, at most SAMPLE_EVERY past it. */
export function rowsEndBy(checkpoints: LedgerCheckpoints, asOfMs: number): number {
  const samples = checkpoints.samplesMs;
  const firstAfter = firstWhere(samples.length, (i) => (samples[i] ?? 0) > asOfMs);
  return Math.min(checkpoints.ids.length, firstAfter * SAMPLE_EVERY);
}

const RIGHTS: ReadonlyArray<OptionRight | null> = [null, 'C', 'P'];

/** Integers per packed slot (packSlots). */
const SLOT_INTS = 5;

/** Packs and unpacks the checkpoints of one build, with the tables they share. */
export class CheckpointCodec {
  private readonly strings = new Table<string>();
  private readonly slotKeys = new Table<{ accountId: AccountId; underlying: string; currency: string }>();
  /**
   * Instruments: integers account, underlying, currency, slot underlying, expiration (strings; −1 none), option flag ×
   * 4 + right (0 none, 1 C, 2 P), symbol (−1: the OCC symbol of the underlying, expiration, right and strike);
   * numbers strike (NaN none), multiplier.
   */
  private readonly instrumentKeys = new Table<number>();
  private readonly instruments = new Records();
  /** Position states: integers instrument, side, lots, then the open day of each; numbers qty, then qty, gross, costs per lot. */
  private readonly positionStates = new Records();
  /** Campaign states: integers index, underlying, close day (−1 open), assignments, legs; numbers realized, dividends, fees, commissions, premiums, net option cash, peak collateral. */
  private readonly campaignStates = new Records();
  /** Per instrument (campaign), the state it had at the previous checkpoint (while building). */
  private readonly lastPosition = new Map<number, number>();
  private readonly lastCampaign = new Map<number, number>();

  /** Account ids and tickers, in tables of their own: they come back as the brands they went in as. */
  private readonly accounts = new Table<AccountId>();
  private readonly tickers = new Table<Ticker>();

  private account(id: AccountId): number {
    return this.accounts.index(id, () => id);
  }

  private ticker(ticker: Ticker): number {
    return this.tickers.index(ticker, () => ticker);
  }

  private accountOf(index: number): AccountId {
    return valueAt(this.accounts, index);
  }

  private tickerOf(index: number): Ticker {
    return valueAt(this.tickers, index);
  }

  private text(value: string): number {
    return this.strings.index(value, () => value);
  }

  /** A string of the shared table by its index. */
  textOf(index: number): string {
    return this.strings.values[index] ?? '';
  }

  /** Bytes the checkpoints' shared records keep (the tables' strings and the per-checkpoint arrays aside). */
  get bytes(): number {
    return this.instruments.bytes + this.positionStates.bytes + this.campaignStates.bytes;
  }

  /** The instrument of a position, added on first sight. */
  private instrumentOf(pos: Position): number {
    const slotUnderlying = pos.slot.key;
    const index = this.instrumentKeys.index(`${pos.accountId}\u0000${pos.currency}\u0000${pos.symbol}\u0000${slotUnderlying}`, () => {
      const derived = pos.isOption && pos.expiration !== null && pos.right !== null && pos.strike !== null && occSymbol(pos.underlying, pos.expiration, pos.right, pos.strike) === pos.symbol;
      const ints = [this.account(pos.accountId), this.ticker(pos.underlying), this.text(pos.currency), this.text(slotUnderlying), pos.expiration === null ? -1 : this.text(pos.expiration), (pos.isOption ? 4 : 0) + RIGHTS.indexOf(pos.right), derived ? -1 : this.text(pos.symbol)];
      return this.instruments.add(ints, [pos.strike ?? Number.NaN, pos.multiplier]);
    });
    return this.instrumentKeys.values[index] ?? 0;
  }

  private instrumentAt(offset: number): Instrument {
    const int = (field: number) => this.instruments.int(offset, field);
    const flags = int(5);
    const strikeValue = this.instruments.float(offset, 0);
    const underlying = this.tickerOf(int(1));
    const expiration = int(4) < 0 ? null : this.textOf(int(4));
    const right = RIGHTS[flags % 4] ?? null;
    const strike = Number.isNaN(strikeValue) ? null : strikeValue;
    const symbol = int(6) >= 0 || expiration === null || right === null || strike === null ? this.textOf(int(6)) : occSymbol(underlying, expiration, right, strike);
    return { accountId: this.accountOf(int(0)), symbol, underlying, currency: this.textOf(int(2)), slotUnderlying: this.textOf(int(3)), expiration, isOption: flags >= 4, right, strike, multiplier: this.instruments.float(offset, 1) };
  }

  /**
   * The open positions, as offsets of their states. Most positions do not change between two checkpoints: a state
   * equal to the one the instrument had at the previous checkpoint is not stored again. The open cost is not kept:
   * it is the lots' gross and costs.
   */
  packPositions(positions: Iterable<Position>): Int32Array {
    const offsets: number[] = [];
    const ints: number[] = [];
    const floats: number[] = [];
    for (const pos of positions) {
      if (pos.qty <= 0) continue;
      const instrument = this.instrumentOf(pos);
      ints.length = 0;
      floats.length = 0;
      ints.push(instrument, pos.side, pos.lots.length - pos.head);
      floats.push(pos.qty);
      for (let i = pos.head; i < pos.lots.length; i += 1) {
        const lot = pos.lots[i];
        if (!lot) continue;
        ints.push(this.text(lot.openDay));
        floats.push(lot.qty, lot.grossMinor, lot.costsMinor);
      }
      const offset = this.positionStates.add(ints, floats, this.lastPosition.get(instrument));
      this.lastPosition.set(instrument, offset);
      offsets.push(offset);
    }
    return Int32Array.from(offsets);
  }

  /** After the build: the records as typed arrays, the indexes of keys dropped. */
  seal(): void {
    for (const records of [this.instruments, this.positionStates, this.campaignStates]) records.seal();
    for (const table of [this.strings, this.accounts, this.tickers, this.slotKeys, this.instrumentKeys]) table.seal();
    this.lastPosition.clear();
    this.lastCampaign.clear();
  }

  /** Walks the packed positions: each instrument with its side, quantity, open cost and lots (new objects). */
  private eachPosition(packed: Int32Array, visit: (instrument: Instrument, side: number, qty: number, openCostMinor: number, lots: Lot[]) => void): void {
    const states = this.positionStates;
    for (const offset of packed) {
      const count = states.int(offset, 2);
      const lots: Lot[] = [];
      let openCostMinor = 0;
      for (let n = 0; n < count; n += 1) {
        const lot = { qty: states.float(offset, 1 + 3 * n), grossMinor: states.float(offset, 2 + 3 * n), costsMinor: states.float(offset, 3 + 3 * n), openDay: this.textOf(states.int(offset, 3 + n)) };
        openCostMinor += lot.grossMinor + lot.costsMinor;
        lots.push(lot);
      }
      visit(this.instrumentAt(states.int(offset, 0)), states.int(offset, 1), states.float(offset, 0), openCostMinor, lots);
    }
  }

  /** The open positions of a checkpoint as plain values, with their lots. */
  positionsOf(packed: Int32Array): Array<Instrument & { side: number; qty: number; openCostMinor: number; lots: Lot[] }> {
    const positions: Array<Instrument & { side: number; qty: number; openCostMinor: number; lots: Lot[] }> = [];
    this.eachPosition(packed, (instrument, side, qty, openCostMinor, lots) => positions.push({ ...instrument, side, qty, openCostMinor, lots }));
    return positions;
  }

  /** The open positions of a checkpoint, in their slots (new objects: the checkpoint serves many replays). */
  unpackPositions(packed: Int32Array, slotOf: (accountId: AccountId, underlying: string, currency: string) => CampaignSlot): Position[] {
    const positions: Position[] = [];
    this.eachPosition(packed, (i, side, qty, openCostMinor, lots) => {
      positions.push({
        accountId: i.accountId,
        symbol: i.symbol,
        underlying: i.underlying,
        currency: i.currency,
        isOption: i.isOption,
        right: i.right,
        expiration: i.expiration,
        strike: i.strike,
        multiplier: i.multiplier,
        side,
        qty,
        lots,
        head: 0,
        openCostMinor,
        slot: slotOf(i.accountId, i.slotUnderlying, i.currency),
      });
    });
    return positions;
  }

  packSlots(states: readonly SlotState[]): Int32Array {
    const packed = new Int32Array(states.length * SLOT_INTS);
    states.forEach((state, n) => {
      const { accountId, underlying, currency } = state;
      const at = n * SLOT_INTS;
      packed[at] = this.slotKeys.index(`${accountId}\u0000${currency}\u0000${underlying}`, () => ({ accountId, underlying, currency }));
      packed[at + 1] = state.current;
      packed[at + 2] = state.last;
      packed[at + 3] = state.holder;
      packed[at + 4] = state.holderLeftDay === null ? -1 : this.text(state.holderLeftDay);
    });
    return packed;
  }

  unpackSlots(packed: Int32Array): SlotState[] {
    const states: SlotState[] = [];
    for (let at = 0; at + SLOT_INTS <= packed.length; at += SLOT_INTS) {
      const key = this.slotKeys.values[packed[at] ?? 0];
      const left = packed[at + 4] ?? -1;
      if (key !== undefined) states.push({ ...key, current: packed[at + 1] ?? -1, last: packed[at + 2] ?? -1, holder: packed[at + 3] ?? -1, holderLeftDay: left < 0 ? null : this.textOf(left) });
    }
    return states;
  }

  /** The campaigns that may still change, by index: their figures and how many legs they had (a state unchanged since the previous checkpoint is shared). */
  packLive(campaigns: ReadonlyArray<{ index: number; campaign: CampaignRecord }>): Int32Array {
    return Int32Array.from(
      campaigns.map(({ index, campaign: c }) => {
        const basis = c.collateralBasis;
        const regT = basis.rule === 'reg_t';
        const quoteTime = regT && basis.quoteTime !== null ? this.text(basis.quoteTime) : -1;
        const ints = [index, this.ticker(c.underlying), c.closeDay === null ? -1 : this.text(c.closeDay), c.assignments, c.legs.length, c.optionLegs, regT ? 1 : 0, quoteTime];
        const floats = [c.realizedMinor, c.dividendsMinor, c.feesMinor, c.commissionsMinor, c.premiumsMinor, c.netOptionCashMinor, c.collateralPeakMinor, regT ? (basis.spot ?? NaN) : NaN];
        const offset = this.campaignStates.add(ints, floats, this.lastCampaign.get(index));
        this.lastCampaign.set(index, offset);
        return offset;
      }),
    );
  }

  /** The fields of a campaign state (see packLive). */
  private campaignState(offset: number) {
    const int = (field: number) => this.campaignStates.int(offset, field);
    const float = (field: number) => this.campaignStates.float(offset, field);
    return {
      index: int(0),
      underlying: this.tickerOf(int(1)),
      closeDay: int(2) < 0 ? null : this.textOf(int(2)),
      assignments: int(3),
      legCount: int(4),
      realizedMinor: float(0),
      dividendsMinor: float(1),
      feesMinor: float(2),
      commissionsMinor: float(3),
      premiumsMinor: float(4),
      netOptionCashMinor: float(5),
      collateralPeakMinor: float(6),
      optionLegs: int(5),
      collateralBasis: this.basisOf(int(6), float(7), int(7)),
    };
  }

  /** A campaign state's collateral basis (see packLive: the rule, the spot, NaN for none, and the quote time's text). */
  private basisOf(regT: number, spot: number, quoteTime: number): CollateralBasis {
    if (regT !== 1) return { rule: 'cash_secured' };
    return { rule: 'reg_t', spot: Number.isNaN(spot) ? null : spot, quoteTime: quoteTime < 0 ? null : this.textOf(quoteTime) };
  }

  /** The complete ledger's campaigns up to the checkpoint: the frozen ones as they are, the live ones as they were then. */
  liveCampaigns(checkpoint: LedgerCheckpoint, complete: readonly CampaignRecord[]): CampaignRecord[] {
    const campaigns = complete.slice(0, checkpoint.campaignCount);
    checkpoint.live.forEach((offset, n) => {
      const { index, legCount, ...figures } = this.campaignState(offset);
      const record = complete[index];
      if (record !== undefined) campaigns[index] = { ...record, ...figures, legs: record.legs.slice(0, legCount), steps: [], rolls: checkpoint.liveRolls[n] ?? 0, plMinor: 0 };
    });
    return campaigns;
  }

  /** The campaign index, underlying and close day of each live campaign of a checkpoint. */
  liveKeys(checkpoint: LedgerCheckpoint): Array<{ index: number; underlying: Ticker; closeDay: string | null }> {
    return [...checkpoint.live].map((offset) => {
      const { index, underlying, closeDay } = this.campaignState(offset);
      return { index, underlying, closeDay };
    });
  }
}

/** The first index in [0, length) where `predicate` holds, for a predicate that is false then true. */
export function firstWhere(length: number, predicate: (index: number) => boolean): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (predicate(mid)) high = mid;
    else low = mid + 1;
  }
  return low;
}
