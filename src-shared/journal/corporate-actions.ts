/**
 * Corporate actions (DESIGN §5 "Corporate actions", docs/journal.md §Corporate actions): splits, reverse splits,
 * symbol changes, mergers (for shares, for cash, or both), stock dividends, free shares and spin-offs, applied to the
 * lots and open option contracts of an account at the start of the action's day.
 *
 * A broker's file brings them as SPLIT / SYMBOL_CHANGE rows (with their terms where the file states them); a person
 * enters them at /v1/journal/corporate-actions (the journal adds them to the rows it reads, order.ts puts every one at
 * the start of its day). One walk applies them, to the ledger's lots (ledger.ts) and to the trade walk's
 * (trade-walk.ts), through the ActionBook each of them gives: the two agree lot for lot, as their fills do.
 *
 * The rules (each with its hand-computed test in test/unit/shared/journal/corporate-actions.test.ts):
 * - lots keep their total basis and their opening dates; quantities × ratio; a fraction paid in cash is a sale of
 *   the fraction at the stated cash, against its FIFO basis;
 * - a merger's cash part is a sale against a part of each lot's basis: `1 − costFraction` of it when the action states
 *   costFraction (the part the new shares keep), else as much basis as the cash returns (the lot realizes only cash
 *   beyond its basis); a merger for cash alone sells the shares at the cash;
 * - a spin-off moves `costFraction` of each lot's basis to a lot of the new shares with the same opening date;
 * - a stock dividend and free shares add shares at zero cost, opened on the action's day;
 * - open options are adjusted as the OCC does: an integer split multiplies the contracts and divides the strike;
 *   a symbol change (or a merger one for one, without cash) renames the root; anything else keeps contracts and
 *   strike and changes the deliverable (ratio × 100 shares of the new symbol, plus cash), under an adjusted root
 *   (`DKNG1`). The contracts keep their lots, so their campaign and trade go on.
 * - the same action from a file and entered by hand (same account, day, kind and symbol) applies once: the one entered
 *   by hand (order.ts puts it first), the file's is a duplicate.
 */
import { storedTicker, type AccountId } from '../ids';
import { isAdjustedOptionRoot } from '../exposure/roots';
import { QTY_EPSILON, type Deliverable } from './records';
import type { CorporateActionTerms, Transaction } from './model';
import { actionKeys, actionOf, adjustContract, MOVES, rootOf, type ActionBook, type ActionInstrument, type ActionLot, type ActionPosition, type ActionResult } from './corporate-action-rules';

export type { Deliverable };
export { actionKeys, actionOf, adjustContract, deliverableValue, rootOf, type ActionBook, type ActionInstrument, type ActionLot, type ActionPosition, type ActionResult, type AdjustedContract } from './corporate-action-rules';

/**
 * Applies the corporate-action rows of a walk to a book. Its state: the deliverables of adjusted contracts (by symbol:
 * one contract delivers the same in every account), the adjusted roots given so far, and per day the keys applied and
 * where each adjusted contract went (a broker's row naming the adjusted contract follows the action's own adjustment).
 */
export class CorporateActionWalk<L extends ActionLot, P extends ActionPosition<L>> {
  readonly deliverables: Map<string, Deliverable>;
  /** Adjusted roots by event (day, symbol, underlying): a replay from a checkpoint gives each event the root it had. */
  readonly roots: Map<string, string>;
  private day = '';
  private readonly applied = new Set<string>();
  private readonly adjusted = new Map<string, P>();
  private readonly rootsTaken = new Set<string>();

  constructor(
    private readonly book: ActionBook<L, P>,
    known?: { deliverables: ReadonlyMap<string, Deliverable>; roots: ReadonlyMap<string, string> },
  ) {
    this.deliverables = new Map(known?.deliverables);
    this.roots = new Map(known?.roots);
    for (const root of this.roots.values()) this.rootsTaken.add(root);
  }

  private positionKey(accountId: AccountId, currency: string, symbol: string): string {
    return `${accountId}\u0000${currency}\u0000${symbol}`;
  }

  /** One SPLIT / SYMBOL_CHANGE row, at the start of its day. */
  apply(t: Transaction): ActionResult<P> {
    if (t.tradeDay !== this.day) {
      this.day = t.tradeDay;
      this.applied.clear();
      this.adjusted.clear();
    }
    if (t.isOption) return this.optionRow(t);
    const terms = actionOf(t);
    if (terms === null) return { outcome: 'not_applied', position: null, cashMinor: 0 };
    const keys = actionKeys(t.accountId, t.tradeDay, terms);
    if (keys.some((key) => this.applied.has(key))) return { outcome: 'duplicate', position: null, cashMinor: 0 };
    for (const key of keys) this.applied.add(key);
    return this.applyTerms(t, terms);
  }

  /** The adjusted root of `underlying` for the action of this day on `symbol`: one per event, never one taken before. */
  private rootFor(symbol: string, underlying: string): string {
    const event = `${this.day}\u0000${symbol}\u0000${underlying}`;
    const known = this.roots.get(event);
    if (known !== undefined) return known;
    let n = 1;
    while (this.rootsTaken.has(`${underlying}${n}`) && n < 9) n += 1;
    const root = `${underlying}${n}`;
    this.roots.set(event, root);
    this.rootsTaken.add(root);
    return root;
  }

  private applyTerms(t: Transaction, terms: CorporateActionTerms): ActionResult<P> {
    const book = this.book;
    const held = book.heldOf(t.accountId, terms.symbol);
    const result: ActionResult<P> = { outcome: 'nothing_held', position: null, cashMinor: 0 };
    const touched = (pos: P) => {
      result.outcome = 'applied';
      if (result.position === null || result.position.qty <= 0) result.position = pos;
    };
    const renamedTo = terms.newSymbol !== null && terms.newSymbol !== terms.symbol && (MOVES.has(terms.type) || terms.type === 'split') ? storedTicker(terms.newSymbol) : null;
    if (renamedTo !== null) {
      for (const currency of new Set(held.map((p) => p.currency))) book.rename(t.accountId, currency, terms.symbol, renamedTo);
    }
    const stockOf = (currency: string, symbol: string) =>
      book.positionOf(t.accountId, currency, { symbol, underlying: storedTicker(symbol), isOption: false, expiration: null, strike: null, right: null, multiplier: 1 });
    const sellFraction = (pos: P, received: number) => {
      const cash = terms.cashPerShareMinor;
      if (cash === null || pos.side <= 0) return;
      const fraction = received - Math.floor(received + 1e-9);
      if (fraction <= 1e-9) return;
      const proceeds = Math.round(fraction * cash);
      book.sell(pos, Math.min(fraction, pos.qty), proceeds);
      result.cashMinor += proceeds;
    };
    const stocks = held.filter((p) => !p.isOption);
    for (const pos of stocks) {
      const before = pos.qty;
      switch (terms.type) {
        case 'split':
        case 'symbol_change': {
          let factor = terms.ratio ?? (terms.type === 'symbol_change' ? 1 : null);
          if (factor === null) {
            // A file's signed change of its account's shares: in the row's own currency.
            if (pos.currency !== t.currency || terms.quantity === null) break;
            factor = Math.max(0, (pos.side * pos.qty + terms.quantity) * pos.side) / pos.qty;
          }
          if (!(factor >= 0)) break;
          book.scale(pos, factor);
          const target = renamedTo === null ? pos : stockOf(pos.currency, renamedTo);
          if (target !== pos && pos.qty > 0 && !book.move(pos, target)) break;
          sellFraction(target, before * factor);
          touched(target);
          break;
        }
        case 'merger': {
          const ratio = terms.ratio ?? (renamedTo !== null ? 1 : 0);
          const cash = terms.cashPerShareMinor ?? 0;
          if (ratio <= 0 || renamedTo === null) {
            if (pos.side > 0) {
              const proceeds = Math.round(pos.qty * cash);
              book.sell(pos, pos.qty, proceeds);
              result.cashMinor += proceeds;
            }
            touched(pos);
            break;
          }
          if (cash > 0 && pos.side > 0) result.cashMinor += this.mergerCash(pos, cash, terms.costFraction);
          book.scale(pos, ratio);
          const target = stockOf(pos.currency, renamedTo);
          if (!book.move(pos, target)) break;
          touched(target);
          break;
        }
        case 'stock_dividend': {
          if (pos.side <= 0) break;
          const received = terms.ratio !== null ? pos.qty * terms.ratio : pos.currency === t.currency ? (terms.quantity ?? 0) : 0;
          if (!(received > QTY_EPSILON)) break;
          const whole = terms.cashPerShareMinor !== null ? Math.floor(received + 1e-9) : received;
          if (whole > QTY_EPSILON) book.addLot(pos, t.tradeDay, whole, 0, 0, null);
          const fraction = received - whole;
          if (fraction > 1e-9 && terms.cashPerShareMinor !== null) {
            const proceeds = Math.round(fraction * terms.cashPerShareMinor);
            book.realize(pos, proceeds);
            result.cashMinor += proceeds;
          }
          touched(pos);
          break;
        }
        case 'spinoff': {
          if (pos.side <= 0 || terms.newSymbol === null) break;
          const received = terms.ratio !== null ? pos.qty * terms.ratio : pos.currency === t.currency ? (terms.quantity ?? 0) : 0;
          if (!(received > QTY_EPSILON)) break;
          const child = stockOf(pos.currency, terms.newSymbol);
          // New shares join a long position only (a short of the new symbol is left as it is: nothing moves).
          if (child.qty > 0 && child.side < 0) break;
          const share = terms.costFraction ?? 0;
          const heldQty = pos.qty;
          for (let i = pos.head; i < pos.lots.length; i += 1) {
            const lot = pos.lots[i];
            if (lot === undefined || lot.qty <= QTY_EPSILON) continue;
            const grossMinor = Math.round(lot.grossMinor * share);
            const costsMinor = Math.round(lot.costsMinor * share);
            book.takeBasis(pos, lot, grossMinor, costsMinor, 0);
            book.addLot(child, lot.openDay, (received * lot.qty) / heldQty, grossMinor, costsMinor, lot);
          }
          sellFraction(child, received);
          touched(child);
          break;
        }
        case 'free_shares':
          break;
      }
    }
    // Shares that arrive whether or not any were held: free shares, and the shares a file says a stock dividend or a
    // spin-off brought into an account that held none of the parent before its history.
    const quantity = terms.quantity ?? 0;
    const arriving = terms.type === 'free_shares' ? terms.symbol : stocks.length === 0 && terms.type === 'stock_dividend' ? terms.symbol : stocks.length === 0 && terms.type === 'spinoff' ? terms.newSymbol : null;
    if (quantity > QTY_EPSILON && arriving !== null && arriving !== '') {
      const pos = stockOf(t.currency, arriving);
      if (pos.qty <= 0 || pos.side > 0) {
        book.addLot(pos, t.tradeDay, quantity, 0, 0, null);
        touched(pos);
      }
    }
    for (const option of held.filter((p) => p.isOption)) {
      const current = this.deliverables.get(option.symbol) ?? null;
      const adjusted = adjustContract(option, current, terms, (underlying) => this.rootFor(terms.symbol, underlying));
      if (adjusted === null) continue;
      const oldSymbol = option.symbol;
      const target = adjusted.instrument.symbol === option.symbol ? option : book.positionOf(t.accountId, option.currency, adjusted.instrument);
      if (target !== option && !book.move(option, target)) continue;
      if (adjusted.contractsFactor !== 1) book.scale(target, adjusted.contractsFactor);
      if (adjusted.deliverable !== null) this.deliverables.set(target.symbol, adjusted.deliverable);
      this.adjusted.set(this.positionKey(t.accountId, option.currency, oldSymbol), target);
      touched(target);
    }
    return result;
  }

  /**
   * The cash part of a merger for shares and cash (`cashPerShareMinor` per old share): a sale against a part of each
   * lot's basis, `1 − costFraction` of it when given, else as much as the cash returns. Returns the cash.
   */
  private mergerCash(pos: P, cashPerShareMinor: number, costFraction: number | null): number {
    let restQty = pos.qty;
    let restCash = Math.round(pos.qty * cashPerShareMinor);
    const total = restCash;
    for (let i = pos.head; i < pos.lots.length; i += 1) {
      const lot = pos.lots[i];
      if (lot === undefined || lot.qty <= QTY_EPSILON) continue;
      // The remainder method: the lots' cash adds up to the whole exactly.
      const cashMinor = lot.qty >= restQty - QTY_EPSILON ? restCash : Math.round((restCash * lot.qty) / restQty);
      restQty -= lot.qty;
      restCash -= cashMinor;
      const basisMinor = lot.grossMinor + lot.costsMinor;
      const takenMinor = costFraction !== null ? Math.round(basisMinor * (1 - costFraction)) : Math.min(cashMinor, Math.max(0, basisMinor));
      const costsMinor = basisMinor > 0 ? Math.round((lot.costsMinor * takenMinor) / basisMinor) : 0;
      this.book.takeBasis(pos, lot, takenMinor - costsMinor, costsMinor, cashMinor - takenMinor);
    }
    return total;
  }

  /**
   * A broker's row naming an option's adjusted contract (old → new symbol, the new root often adjusted: USO1, GREE1):
   * the lots move there, or — when the day's action already adjusted the contract — follow the broker's name.
   */
  private optionRow(t: Transaction): ActionResult<P> {
    const book = this.book;
    const previous = t.previousSymbol ?? t.symbol;
    const instrument: ActionInstrument = { symbol: t.symbol, underlying: t.underlying !== '' ? t.underlying : storedTicker(t.symbol), isOption: true, expiration: t.expiration, strike: t.strike, right: t.right, multiplier: t.multiplier > 0 ? t.multiplier : 100 };
    const key = this.positionKey(t.accountId, t.currency, previous);
    const old = book.find(t.accountId, t.currency, previous);
    let source = old !== undefined && old.qty > 0 ? old : undefined;
    let already = false;
    if (source === undefined) {
      const moved = this.adjusted.get(key);
      if (moved === undefined || moved.qty <= 0) return { outcome: 'nothing_held', position: null, cashMinor: 0 };
      source = moved;
      already = true;
    }
    if (source.underlying !== instrument.underlying) book.rename(t.accountId, t.currency, source.underlying, instrument.underlying);
    const target = source.symbol === t.symbol ? source : book.positionOf(t.accountId, t.currency, instrument);
    const carried = this.deliverables.get(source.symbol) ?? null;
    if (target !== source && !book.move(source, target)) return { outcome: 'not_applied', position: null, cashMinor: 0 };
    if (!already && t.type === 'SPLIT' && t.quantity !== 0 && target.qty > 0) {
      // The file's signed change of the contracts.
      book.scale(target, Math.max(0, (target.side * target.qty + t.quantity) * target.side) / target.qty);
    }
    const root = rootOf(t.symbol);
    if (root !== null && isAdjustedOptionRoot(root)) {
      this.deliverables.set(target.symbol, carried !== null ? { ...carried, root } : { root, shares: null, cashMinor: 0 });
      // A broker's root is taken from its day on (an event of that day or later picks another).
      if (!this.rootsTaken.has(root)) this.roots.set(`${this.day}\u0000broker\u0000${root}`, root);
      this.rootsTaken.add(root);
    }
    this.adjusted.set(key, target);
    return { outcome: 'applied', position: target, cashMinor: 0 };
  }
}
