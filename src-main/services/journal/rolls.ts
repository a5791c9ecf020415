/**
 * The roll assistant's read (DESIGN §5 "Management rules and rolls", docs/journal.md §Rolls), in the journal worker:
 * an open trade's short option legs (its own open lots, as Trades marks them) and the candidates of each in a chain
 * snapshot of its underlying (src-shared/journal/roll-candidates.ts), from the snapshot the request names or the
 * newest one now. A snapshot older than `markMaxAgeDays` New York trading days is refused (409 STALE_SNAPSHOT): its
 * quotes are of another market.
 */
import { isoInstant } from '../../../src-shared/calendar';
import { underlyingOfRoot } from '../../../src-shared/exposure/roots';
import { markAgeDays } from '../../../src-shared/journal/book';
import { parseOccSymbol } from '../../../src-shared/journal/model';
import { rollCandidates, type CandidateContract, type RollLeg, type RollLegResult, type RollOptions } from '../../../src-shared/journal/roll-candidates';
import type { OpenPart, Trade } from '../../../src-shared/journal/trades';
import { MINOR_PER_UNIT } from '../../../src-shared/money';
import { dateInZone, NEW_YORK } from '../../../src-shared/zone';
import type { JournalMarks, SnapshotChain } from './marks';
import type { JournalTrades } from './trades';
import { failure, ok, type Result } from '../result';
import type { TradeId } from '../../../src-shared/ids';

export interface RollsRequest extends RollOptions {
  /** A stored snapshot of the trade's underlying; default the newest now. */
  snapshot?: number;
}

export interface RollsResult {
  trade: Trade;
  snapshot: { id: number; symbol: string; quoteTime: string; spot: number; ageDays: number };
  options: RollOptions;
  legs: RollLegResult[];
}

/** A short option the trade holds open now, as rolled: its own contracts, not the account's whole position. */
function shortLegs(parts: readonly OpenPart[], multiplierOf: (part: OpenPart) => number): Array<{ part: OpenPart; leg: RollLeg }> {
  const legs: Array<{ part: OpenPart; leg: RollLeg }> = [];
  for (const part of parts) {
    if (!(part.quantity < 0)) continue;
    const occ = parseOccSymbol(part.symbol);
    if (occ === null) continue;
    legs.push({ part, leg: { symbol: part.symbol, root: occ.root, expiration: occ.expiration, strike: occ.strike, right: occ.right, contracts: -part.quantity, multiplier: multiplierOf(part) } });
  }
  return legs.sort((a, b) => (a.leg.expiration < b.leg.expiration ? -1 : a.leg.expiration > b.leg.expiration ? 1 : 0) || a.leg.strike - b.leg.strike || (a.leg.right === b.leg.right ? 0 : a.leg.right === 'P' ? -1 : 1));
}

export class JournalRolls {
  constructor(
    private readonly trades: JournalTrades,
    private readonly marks: JournalMarks,
    private readonly settings: () => { markMaxAgeDays: number },
    private readonly nowMs: () => number,
  ) {}

  /** The candidates of each short leg of an open trade (404 unknown trade, 409 closed, 409 STALE_SNAPSHOT). */
  rolls(id: TradeId, request: RollsRequest): Result<RollsResult> {
    const known = this.trades.resolve('trade', id);
    if (!known.ok) return known;
    const built = this.trades.tradeBook();
    const trade = built.book.byId.get(known.value);
    if (trade === undefined) return failure({ kind: 'not-found', what: 'trade', id });
    if (trade.status !== 'open') return failure({ kind: 'conflict', param: 'id', detail: `Trade ${trade.id} is closed: it has no open leg to roll.` });
    const symbol = underlyingOfRoot(trade.underlying);
    const nowMs = this.nowMs();
    const snapshotId = request.snapshot ?? this.marks.stampAt(symbol, nowMs)?.id ?? null;
    if (snapshotId === null) return failure({ kind: 'unknown-symbol', symbol, known: [] });
    const loaded = this.marks.snapshotChain(snapshotId);
    // A snapshot of another underlying is as unknown as one that does not exist.
    if (loaded === null || loaded.symbol !== symbol) return failure({ kind: 'unknown-snapshot', symbol, id: snapshotId });
    const ageDays = markAgeDays(loaded.marks.quoteTime, nowMs);
    const maxAgeDays = this.settings().markMaxAgeDays;
    if (ageDays > maxAgeDays) {
      return failure({ kind: 'stale-snapshot', symbol, id: snapshotId, quoteTime: loaded.marks.quoteTime, date: dateInZone(Date.parse(loaded.marks.quoteTime), NEW_YORK), ageDays, maxAgeDays });
    }
    const parts = built.book.openParts.get(trade.id) ?? [];
    const positionOf = (part: OpenPart) => built.positions.get(`${part.accountId}\u0000${part.currency}\u0000${part.symbol}`);
    const options: RollOptions = { maxDte: request.maxDte, expirations: request.expirations, strikes: request.strikes };
    if (request.minNet !== undefined) options.minNet = request.minNet;
    if (request.net !== undefined) options.net = request.net;
    if (request.maxDelta !== undefined) options.maxDelta = request.maxDelta;
    if (request.beyondWall !== undefined) options.beyondWall = request.beyondWall;
    // A leg past its expiration at the quote is not rolled: its expiry waits under Positions' needs attention.
    const quoteDay = dateInZone(Date.parse(loaded.marks.quoteTime), NEW_YORK);
    const open = shortLegs(parts, (part) => positionOf(part)?.multiplier ?? 100).filter(({ leg }) => leg.expiration >= quoteDay);
    const legs = open.map(({ leg }) =>
      rollCandidates(loaded.chain, loaded.contracts, leg, options, (expiration) => loaded.marks.levelsIn('own', expiration), (candidate) => this.collateralAfter(parts, leg, candidate, loaded)),
    );
    return ok({ trade, snapshot: { id: snapshotId, symbol, quoteTime: isoInstant(Date.parse(loaded.marks.quoteTime)), spot: loaded.marks.spot, ageDays }, options, legs });
  }

  /**
   * The collateral of the trade once the leg is replaced by the candidate: a put's strike notional (cash-secured); a
   * call covered by the trade's shares their cost; a naked call Reg T at the snapshot's spot (max(20 % of spot − the
   * out-of-the-money amount, 10 % of spot) × multiplier × contracts + its premium).
   */
  private collateralAfter(parts: readonly OpenPart[], leg: RollLeg, candidate: CandidateContract, loaded: SnapshotChain): number | null {
    const size = leg.contracts * leg.multiplier;
    if (candidate.right === 'P') return Math.round(candidate.strike * MINOR_PER_UNIT * size);
    let shares = 0;
    let shareCostMinor = 0;
    for (const part of parts) {
      if (part.quantity <= 0 || parseOccSymbol(part.symbol) !== null) continue;
      shares += part.quantity;
      shareCostMinor += part.entryGrossMinor + part.entryCostsMinor;
    }
    if (shares >= size) return Math.round((shareCostMinor * size) / shares);
    const spot = loaded.marks.spot;
    const outOfTheMoney = Math.max(candidate.strike - spot, 0);
    return Math.round(Math.max(0.2 * spot - outOfTheMoney, 0.1 * spot) * size * MINOR_PER_UNIT) + candidate.openMidMinor * size;
  }
}
