/**
 * The journal's sentences, written once for every place that says them (issue 27 item 9, "one story everywhere"): the
 * Positions page's needs-attention item and the import report's warning for a close without an opening are the same
 * words; quantities keep their decimals (0.5 shares, never 1 or 0); an assignment is called an assignment.
 */
import type { TransactionType } from './model';

const QUANTITY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 6 });

/** A quantity as read: thousands grouped, up to six decimals without trailing zeros (1,200; 0.5; 0.123456), a true minus. */
export function quantityText(value: number): string {
  if (!Number.isFinite(value)) return '—';
  const text = QUANTITY.format(value);
  // What rounds to zero keeps no sign ("−0" would read as a short that is not there).
  return /[1-9]/.test(text) ? text.replace('-', '−') : text.replace('-', '');
}

/** A count with its noun, singular for exactly one: `1 share`, `0.5 shares`, `2 contracts`. */
export function countText(count: number, singular: string, plural = `${singular}s`): string {
  return `${quantityText(count)} ${count === 1 ? singular : plural}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const STRIKE = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 3 });

/** `SPY250117P00450000` → `SPY 17 Jan 25 450 P`; plain tickers pass through. */
export function symbolText(symbol: string): string {
  const match = /^([A-Z0-9.^/]{1,6})(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/.exec(symbol);
  if (!match) return symbol;
  const [, root, yy, mm, dd, right, strike] = match;
  return `${root} ${dd} ${MONTHS[Number(mm) - 1] ?? mm} ${yy} ${STRIKE.format(Number(strike) / 1000)} ${right}`;
}

/** What each kind of row that removes units did, as the sentence says it. */
const CLOSED_WORDS: Partial<Record<TransactionType, string>> = {
  BUY_TO_CLOSE: 'bought back',
  BUY_TO_COVER: 'covered',
  BUY: 'bought',
  SELL_TO_CLOSE: 'sold to close',
  SELL: 'sold',
  ASSIGNMENT: 'assigned',
  EXERCISE: 'exercised',
  EXPIRATION: 'expired',
};

/** An opening the history lacks, as the needs-attention item and the import report carry it. */
export interface OpenedBeforeHistoryFacts {
  accountName: string;
  symbol: string;
  isOption: boolean;
  /** The missing opening position, signed: + long, − short. */
  quantity: number;
  /** New York date of the first unmatched close. */
  firstDate: string | null;
  /** False when no row says the side (an expiration of an option never opened in the history). */
  sideKnown?: boolean;
  /** The kinds of rows that removed the units (an assignment is said as one); absent from an older server. */
  closedBy?: readonly string[];
}

/** What removed the units, in words: "assigned", "bought back or assigned"; the side's general words when unknown. */
function closedWords(facts: OpenedBeforeHistoryFacts): string {
  const words = [...new Set((facts.closedBy ?? []).map((type) => CLOSED_WORDS[type as TransactionType]).filter((w): w is string => w !== undefined))];
  if (words.length > 0) return words.join(' or ');
  return facts.quantity > 0 ? 'sold or closed' : 'bought back or covered';
}

/**
 * The sentence of a close without an opening (docs/journal.md §Unmatched closes): "Demo · SPY 17 Jan 25 450 P: 1
 * contract assigned (first on 2025-01-17) that the history never sold: opened before the first imported row. Its P&L
 * is left out until you enter the opening."
 */
export function openedBeforeHistoryText(facts: OpenedBeforeHistoryFacts): string {
  const quantity = Math.abs(facts.quantity);
  const units = facts.isOption ? countText(quantity, 'contract') : countText(quantity, 'share');
  const first = facts.firstDate ? ` (first on ${facts.firstDate})` : '';
  const never = facts.quantity > 0 ? 'bought' : 'sold';
  const side = facts.sideKnown === false ? ' No row says the side: taken as short.' : '';
  return `${facts.accountName} · ${symbolText(facts.symbol)}: ${units} ${closedWords(facts)}${first} that the history never ${never}: opened before the first imported row.${side} Its P&L is left out until you enter the opening.`;
}
