/**
 * Unmatched closes (docs/journal.md §Unmatched closes): a close, sale, assignment, exercise or expiration that finds
 * fewer open units than it removes. The units beyond what was open were opened before the history starts; their P&L
 * is unknown and the opening they need is kept here, per account × instrument × currency × side, until one is entered.
 */
import type { Position } from './lots';
import type { PositionInstrument, Transaction, TransactionType } from './model';

/**
 * The opening position a history lacks: the units its closes, sales and settlements removed beyond what was open, per
 * account × instrument × currency × side. Until an opening is entered their realized P&L is unknown.
 */
export interface UnmatchedOpening extends PositionInstrument {
  /** The missing opening position, signed: + long (a sale or exercise found too few), − short (a buy-back or assignment). */
  quantity: number;
  /** False when the rows do not say the side: an EXPIRATION of an option never opened in the history (taken as short). */
  sideKnown: boolean;
  /** Trade day and instant of the first unmatched close. */
  firstDay: string;
  firstTradeDate: string;
  /** Rows with an unmatched part. */
  closes: number;
  /** The kinds of those rows, first seen first (the sentence says "assigned" for an assignment: journal/words.ts). */
  closedBy: TransactionType[];
}

function keyOf(u: Pick<UnmatchedOpening, 'accountId' | 'currency' | 'symbol' | 'quantity'>): string {
  return `${u.accountId}\u0000${u.currency}\u0000${u.symbol}\u0000${Math.sign(u.quantity)}`;
}

export class UnmatchedBook {
  private readonly byKey = new Map<string, UnmatchedOpening>();

  /** Row `t` of `pos`'s instrument removed `signedQty` units beyond what was open (+: a long was missing). */
  add(pos: Position, t: Transaction, signedQty: number, sideKnown: boolean): void {
    const key = `${pos.accountId}\u0000${pos.currency}\u0000${pos.symbol}\u0000${Math.sign(signedQty)}`;
    const known = this.byKey.get(key);
    if (known) {
      known.quantity += signedQty;
      known.closes += 1;
      known.sideKnown &&= sideKnown;
      if (!known.closedBy.includes(t.type)) known.closedBy.push(t.type);
      return;
    }
    const { accountId, symbol, underlying, currency, isOption, expiration, strike, right, multiplier } = pos;
    this.byKey.set(key, { accountId, symbol, underlying, currency, isOption, expiration, strike, right, multiplier, quantity: signedQty, sideKnown, firstDay: t.tradeDay, firstTradeDate: t.tradeDate, closes: 1, closedBy: [t.type] });
  }

  /** Starts from a checkpoint's (copies: the checkpoint serves many replays). */
  restore(list: readonly UnmatchedOpening[]): void {
    for (const u of list) this.byKey.set(keyOf(u), { ...u, closedBy: [...u.closedBy] });
  }

  /** Oldest first. */
  list(): UnmatchedOpening[] {
    return [...this.byKey.values()].sort((a, b) => (a.firstTradeDate < b.firstTradeDate ? -1 : a.firstTradeDate > b.firstTradeDate ? 1 : 0));
  }
}
