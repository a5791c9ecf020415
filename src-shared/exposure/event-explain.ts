/**
 * Events that explain themselves (issue 18, docs/exposure.md §Events, "Explanations"): for a new snapshot, which
 * expirations were compared with their confirmed state, which set their first one, which expired or are missing,
 * why each rule did not fire (or that it did), and the book's result. Data first (the import report and the Events
 * page hold it as JSON), then English lines built from it. Bounded: the window is 0–45 dte, and each list keeps at
 * most `EXPLAIN_MAX_ENTRIES` entries beside its full count.
 */
import type { PreparedChain } from './prepare';
import { quoteDate } from './chain-reads';
import { EVENT_MAX_DTE, EVENT_MIN_DTE, FLIP_DEAD_BAND, WALL_MARGIN, type EventDraft, type ExpirationEvaluation, type FlipOutcome, type ScopeOutcome, type WallOutcome } from './events';
import { BOOK_SCOPE, type BookEvaluation, type BookEventDraft } from './book-events';

/** A drafted event of either kind (snapshot-events.ts's SnapshotEventDraft, spelled here: that file calls this one). */
type SnapshotEventDraft = EventDraft | BookEventDraft;

/** At most this many entries per list of an explanation (each list has its full count beside it). */
export const EXPLAIN_MAX_ENTRIES = 50;
/** At most this many expirations are detailed line by line in `explanationLines`. */
export const EXPLAIN_MAX_DETAIL_LINES = 10;

export interface EventsExplanation {
  ticker: string;
  /** The snapshot's quote time. */
  timestamp: string;
  /** Its New York date: dte and expiry are counted from it. */
  quoteDate: string;
  minDte: number;
  maxDte: number;
  /** Expirations of the window with a confirmed state, compared, ascending (at most EXPLAIN_MAX_ENTRIES). */
  compared: Array<{ expiration: string; dte: number; outcome: ScopeOutcome }>;
  comparedCount: number;
  /** Expirations of the window without a confirmed state: this snapshot set their first one, nothing to compare. */
  firstState: Array<{ expiration: string; dte: number }>;
  firstStateCount: number;
  /** Confirmed expirations before the quote date: their state is dropped (the newest first). */
  expired: string[];
  expiredCount: number;
  /** Confirmed, not expired, but not among this snapshot's expirations of the window: their state is kept. */
  notInSnapshot: string[];
  notInSnapshotCount: number;
  /** Unexpired expirations of the snapshot beyond the window (dte > maxDte): not evaluated. */
  beyondWindowCount: number;
  book: BookEvaluation;
  /** Events this snapshot created (per expiration and book). */
  events: number;
}

function capped<T>(items: readonly T[]): T[] {
  return items.slice(0, EXPLAIN_MAX_ENTRIES);
}

/**
 * The explanation of one evaluation. `previous` = the confirmed per-expiration states before it (the book's key
 * excluded), `evaluated` and `book` what evaluateExpirations and evaluateBookEvents said, `events` how many drafts
 * they made.
 */
export function explainEvaluation(input: {
  ticker: string;
  chain: PreparedChain;
  previous: Iterable<string>;
  evaluated: readonly ExpirationEvaluation[];
  book: BookEvaluation;
  events: number;
}): EventsExplanation {
  const today = quoteDate(input.chain);
  const compared: EventsExplanation['compared'] = [];
  const firstState: EventsExplanation['firstState'] = [];
  for (const { expiration, dte, outcome } of input.evaluated) {
    if (outcome === null) firstState.push({ expiration, dte });
    else compared.push({ expiration, dte, outcome });
  }
  const evaluated = new Set(input.evaluated.map((e) => e.expiration));
  const expired: string[] = [];
  const notInSnapshot: string[] = [];
  for (const expiration of input.previous) {
    if (expiration < today) expired.push(expiration);
    else if (!evaluated.has(expiration)) notInSnapshot.push(expiration);
  }
  expired.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  notInSnapshot.sort();
  return {
    ticker: input.ticker,
    timestamp: input.chain.quoteTime,
    quoteDate: today,
    minDte: EVENT_MIN_DTE,
    maxDte: EVENT_MAX_DTE,
    compared: capped(compared),
    comparedCount: compared.length,
    firstState: capped(firstState),
    firstStateCount: firstState.length,
    expired: capped(expired),
    expiredCount: expired.length,
    notInSnapshot: capped(notInSnapshot),
    notInSnapshotCount: notInSnapshot.length,
    beyondWindowCount: input.chain.expirations.filter((e) => e.dte > EVENT_MAX_DTE).length,
    book: input.book,
    events: input.events,
  };
}

// ---------------------------------------------------------------- words

const LEVEL_FORMAT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, useGrouping: true });

/** A level as the pages write it: thousands grouped, at most two decimals (4,700; 217.5). */
export function formatLevel(value: number): string {
  return LEVEL_FORMAT.format(value);
}

const PERCENT_FORMAT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: true });

function percent(fraction: number, signed = false): string {
  const value = Math.round(fraction * 1000) / 10;
  const text = `${PERCENT_FORMAT.format(Math.abs(value))}%`;
  if (!signed) return text;
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${text}`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function flipWords(flip: FlipOutcome): string {
  switch (flip.result) {
    case 'unchanged':
      return `zone ${flip.zone} unchanged`;
    case 'dead-band':
      return `zone ${flip.confirmedZone} → ${flip.zone} inside the ${percent(FLIP_DEAD_BAND)} dead band (|total| ${percent(flip.share)} of Σ|net|): no event`;
    case 'no-gamma':
      return 'no usable gamma: zone not compared';
    case 'fired':
      return `zone ${flip.previousZone} → ${flip.zone} (|total| ${percent(flip.share)} of Σ|net|, beyond the ${percent(FLIP_DEAD_BAND)} dead band: event)`;
  }
}

/**
 * A new wall whose old strike kept less than 1% of its gamma (ratio ≥ 100): said as a wall from ~0, not as "+105,656.6%"
 * beating a margin of 10% (issue 27 item 9).
 */
export const FROM_ZERO_RATIO = 100;

/** Why a wall moved: beat the margin by so much, or a new wall grown from ~0 at the old strike. */
function firedWords(previousStrike: number, ratio: number | null): string {
  if (ratio === null) return 'new wall: the old strike has no gamma left';
  if (ratio >= FROM_ZERO_RATIO) return `new wall from ~0 — ${formatLevel(previousStrike)} keeps under 1% of its gamma`;
  return `${percent(ratio - 1, true)} beat the margin`;
}

function wallWords(label: string, wall: WallOutcome): string {
  switch (wall.result) {
    case 'unchanged':
      return wall.strike === null ? `no ${label}` : `${label} ${formatLevel(wall.strike)} unchanged`;
    case 'margin':
      return `${label} ${formatLevel(wall.previousStrike)} → ${formatLevel(wall.strike)} within the ${percent(WALL_MARGIN - 1)} margin (${percent(wall.ratio - 1, true)}): no event`;
    case 'fired':
      return `${label} ${formatLevel(wall.previousStrike)} → ${formatLevel(wall.strike)} (${firedWords(wall.previousStrike, wall.ratio)}: event)`;
    case 'empty':
      return `${label} side empty: ${formatLevel(wall.previousStrike)} kept`;
    case 'adopted':
      return `${label} ${formatLevel(wall.strike)} taken (none confirmed): no event`;
  }
}

/** Nothing moved: the zone is the confirmed one and both walls are where they were. */
function quiet(outcome: ScopeOutcome): boolean {
  return outcome.flip.result === 'unchanged' && outcome.callWall.result === 'unchanged' && outcome.putWall.result === 'unchanged';
}

function outcomeWords(outcome: ScopeOutcome): string {
  return [flipWords(outcome.flip), wallWords('call wall', outcome.callWall), wallWords('put wall', outcome.putWall)].join('; ');
}

function firedCount(outcome: ScopeOutcome): number {
  return [outcome.flip, outcome.callWall, outcome.putWall].filter((o) => o.result === 'fired').length;
}

function listed(items: readonly string[], count: number, shown = 5): string {
  const head = items.slice(0, shown).join(', ');
  return count > shown ? `${head}, … (${count - shown} more)` : head;
}

function bookLine(book: BookEvaluation): string {
  const window = `${EVENT_MIN_DTE}–${EVENT_MAX_DTE} dte`;
  if (book.status === 'empty') return `the book: no expiration within ${window}, its state is kept`;
  const head = `the book (${plural(book.expirations.length, 'expiration')}, ${window} together)`;
  if (book.status === 'first') return `${head} set its first state`;
  const fired = firedCount(book.outcome);
  return `${head}: ${outcomeWords(book.outcome)}${fired === 0 ? ' — none fired' : ''}`;
}

/**
 * The explanation as sentences, most telling first ("compared 3 expirations: none fired — zone and walls unchanged",
 * "2 new expirations set their first state: …", "the book (…): call wall 4,700 → 4,750 (+12.0% beat the margin:
 * event)"). At most EXPLAIN_MAX_DETAIL_LINES expirations get a line of their own.
 */
export function explanationLines(explanation: EventsExplanation): string[] {
  const lines: string[] = [];
  const window = `${explanation.minDte}–${explanation.maxDte} dte`;
  const { compared, comparedCount } = explanation;
  if (comparedCount > 0) {
    const fired = compared.reduce((sum, c) => sum + firedCount(c.outcome), 0);
    const quietCount = compared.filter((c) => quiet(c.outcome)).length;
    const firedWords = fired === 0 ? 'none fired' : plural(fired, 'event');
    const quietWords = quietCount === 0 ? '' : quietCount === comparedCount ? ' — zone and walls unchanged' : ` — ${quietCount} with zone and walls unchanged`;
    lines.push(`compared ${plural(comparedCount, 'expiration')} (${window}) with their confirmed state: ${firedWords}${quietWords}`);
    const loud = compared.filter((c) => !quiet(c.outcome));
    for (const c of loud.slice(0, EXPLAIN_MAX_DETAIL_LINES)) lines.push(`  ${c.expiration} (${c.dte} dte): ${outcomeWords(c.outcome)}`);
    if (loud.length > EXPLAIN_MAX_DETAIL_LINES) lines.push(`  … and ${plural(loud.length - EXPLAIN_MAX_DETAIL_LINES, 'more expiration')} that moved`);
  } else if (explanation.firstStateCount + explanation.notInSnapshotCount + explanation.expiredCount > 0) {
    lines.push(
      explanation.notInSnapshotCount + explanation.expiredCount > 0
        ? `no expiration in common with the confirmed states: no per-expiration event can fire on this snapshot`
        : `no confirmed state yet: this snapshot sets the first ones, events can fire from the next`,
    );
  } else {
    lines.push(`no expiration within ${window}: nothing compared`);
  }
  if (explanation.firstStateCount > 0) {
    const names = explanation.firstState.map((f) => f.expiration);
    lines.push(`${plural(explanation.firstStateCount, 'new expiration')} set their first state (nothing to compare): ${listed(names, explanation.firstStateCount)}`);
  }
  if (explanation.notInSnapshotCount > 0) {
    lines.push(`${plural(explanation.notInSnapshotCount, 'confirmed expiration')} not in this snapshot: state kept (${listed(explanation.notInSnapshot, explanation.notInSnapshotCount)})`);
  }
  if (explanation.expiredCount > 0) {
    lines.push(`${plural(explanation.expiredCount, 'confirmed expiration')} expired: state dropped (${listed(explanation.expired, explanation.expiredCount)})`);
  }
  if (explanation.beyondWindowCount > 0) lines.push(`${plural(explanation.beyondWindowCount, 'expiration')} beyond ${explanation.maxDte} dte: not evaluated`);
  lines.push(bookLine(explanation.book));
  return lines;
}

// ---------------------------------------------------------------- one event, one report

/** The outcome of the scope an event was drawn in: the book's, or its expiration's (undefined beyond the list's cap). */
function outcomeOf(expiration: string, explanation: EventsExplanation): ScopeOutcome | undefined {
  if (expiration === BOOK_SCOPE) return explanation.book.status === 'compared' ? explanation.book.outcome : undefined;
  return explanation.compared.find((c) => c.expiration === expiration)?.outcome;
}

/** One line saying why a flip or wall event fired ("call wall 105 → 110 (+20.0% beat the margin: event)"). */
export function draftExplanation(draft: SnapshotEventDraft, explanation: EventsExplanation): string | undefined {
  const outcome = outcomeOf(draft.expiration, explanation);
  if (outcome === undefined) return undefined;
  const scope = draft.expiration === BOOK_SCOPE ? `the book (${plural(explanation.book.expirations.length, 'expiration')}, ${explanation.minDte}–${explanation.maxDte} dte together)` : draft.expiration;
  if (draft.eventType === 'flip') return `${scope}: ${flipWords(outcome.flip)}`;
  return `${scope}: ${draft.wallType === 'call' ? wallWords('call wall', outcome.callWall) : wallWords('put wall', outcome.putWall)}`;
}

/** The explanation in the size of an API answer: counts, the book's status, events by scope, and the lines. */
export interface EventReport {
  compared: number;
  firstState: number;
  expired: number;
  notInSnapshot: number;
  beyondWindow: number;
  book: BookEvaluation['status'];
  fired: { expiration: number; book: number };
  lines: string[];
}

export function eventReport(explanation: EventsExplanation, events: readonly SnapshotEventDraft[]): EventReport {
  const book = events.filter((e) => e.expiration === BOOK_SCOPE).length;
  return {
    compared: explanation.comparedCount,
    firstState: explanation.firstStateCount,
    expired: explanation.expiredCount,
    notInSnapshot: explanation.notInSnapshotCount,
    beyondWindow: explanation.beyondWindowCount,
    book: explanation.book.status,
    fired: { expiration: events.length - book, book },
    lines: explanationLines(explanation),
  };
}
