/**
 * Removals that name no option. Older TD Ameritrade statements write an option's expiration (or assignment,
 * exercise) as `REMOVAL OF OPTION DUE TO EXPIRATION` with at most the quantity removed: the contract is the one
 * the statement's own fills left open that expired on (or up to four days before: a Friday expiry booked on
 * Saturday or Monday) the removal's date — the one holding that quantity when several did.
 *
 * The statement's option positions are replayed in time from Account Trade History and the removals that do name
 * their contract (`... EXPIRATION 2 PFE 100 (Weeklys) 16 FEB 24 27 PUT`), read here word by word.
 */
import type { OptionRight } from '../../../src-shared/journal/model';
import { occSymbol } from '../../../src-shared/journal/model';
import { dayMonYyToYmd } from '../common/dates';
import type { CashRow, Context, Contract, Order } from './rows';

export type RemovalEvent = 'EXPIRATION' | 'ASSIGNMENT' | 'EXERCISE';

export interface Removal {
  event: RemovalEvent;
  contract: Contract;
  /** Contracts removed (unsigned). */
  quantity: number;
}

const EVENT = /REMOVAL OF OPTION DUE TO (EXPIRATION|ASSIGNMENT|EXERCISE)/;
/** Days between an expiration and the removal booked for it (Friday's expiry on Saturday or Monday). */
const BOOKING_DAYS = 4;

function numberOf(word: string | undefined): number | null {
  if (word === undefined) return null;
  const text = word.replace(/[(),]/g, '');
  return /^[+-]?\d+(?:\.\d+)?$/.test(text) ? Math.abs(Number(text)) : null;
}

/** The event and what follows it in the description, as words; null when the row is no removal. */
function removalWords(description: string): { event: RemovalEvent; words: string[] } | null {
  const text = description.toUpperCase();
  const match = EVENT.exec(text);
  if (match === null) return null;
  const event: RemovalEvent = match[1] === 'ASSIGNMENT' ? 'ASSIGNMENT' : match[1] === 'EXERCISE' ? 'EXERCISE' : 'EXPIRATION';
  const words = text.slice(match.index + match[0].length).split(/\s+/).filter((word) => word !== '');
  return { event, words };
}

/** `2 PFE 100 (Weeklys) 16 FEB 24 27 PUT`: quantity, root, multiplier, a tag, the expiration, strike, right. */
function namedRemoval(event: RemovalEvent, words: readonly string[]): Removal | null {
  const quantity = numberOf(words[0]);
  const root = words[1];
  const multiplier = numberOf(words[2]);
  let at = 3;
  if (words[at]?.startsWith('(')) {
    while (at < words.length && !(words[at] ?? '').endsWith(')')) at += 1;
    at += 1;
  }
  const expiration = dayMonYyToYmd(`${words[at] ?? ''} ${words[at + 1] ?? ''} ${words[at + 2] ?? ''}`);
  const strike = numberOf(words[at + 3]);
  const rightWord = words[at + 4];
  const right: OptionRight | null = rightWord === 'CALL' ? 'C' : rightWord === 'PUT' ? 'P' : null;
  if (quantity === null || root === undefined || multiplier === null || expiration === null || strike === null || right === null) return null;
  return { event, quantity, contract: { root, expiration, strike, right, multiplier } };
}

function keyOf(contract: Contract): string {
  return occSymbol(contract.root, contract.expiration, contract.right, contract.strike);
}

function daysBetween(fromYmd: string, toYmd: string): number {
  return Math.round((Date.parse(`${toYmd}T00:00:00Z`) - Date.parse(`${fromYmd}T00:00:00Z`)) / 86_400_000);
}

interface Held {
  contract: Contract;
  /** Signed contracts: + long, − short. */
  quantity: number;
}

/**
 * The contract of each removal row that names none, found among the positions the statement holds at its time;
 * rows it cannot place are left out (and read as OTHER, with a warning, by the caller).
 */
export function placeRemovals(orders: readonly Order[], cashRows: readonly CashRow[], ctx: Context): Map<CashRow, Removal> {
  type Step = { ms: number; order: number; apply: () => void };
  const held = new Map<string, Held>();
  const placed = new Map<CashRow, Removal>();
  const steps: Step[] = [];
  const remove = (key: string, quantity: number): void => {
    const position = held.get(key);
    if (position === undefined) return;
    const left = Math.max(0, Math.abs(position.quantity) - quantity);
    position.quantity = Math.sign(position.quantity) * left;
  };
  for (const order of orders) {
    for (const leg of order.legs) {
      const contract = leg.option;
      if (contract === null) continue;
      const delta = leg.side === 'BUY' ? leg.quantity : -leg.quantity;
      steps.push({
        ms: Date.parse(order.when.tradeDate),
        order: 0,
        apply: () => {
          const key = keyOf(contract);
          const position = held.get(key) ?? { contract, quantity: 0 };
          position.quantity += delta;
          held.set(key, position);
        },
      });
    }
  }
  let unnamed = 0;
  // A removal that fits several options is ambiguous only when they do not all leave the same way that day: a
  // spread's legs expiring together are removed by as many rows of the same quantity, in whichever order.
  const ambiguous: Array<{ row: CashRow; day: string; event: RemovalEvent; keys: string[]; message: string }> = [];
  const removedOn = new Set<string>();
  for (const row of cashRows) {
    if (row.type !== 'RAD') continue;
    const removal = removalWords(row.description);
    if (removal === null) continue;
    const named = namedRemoval(removal.event, removal.words);
    if (named !== null) {
      removedOn.add(`${row.when.key.slice(0, 10)}|${named.event}|${keyOf(named.contract)}`);
      steps.push({ ms: Date.parse(row.when.tradeDate), order: 1, apply: () => remove(keyOf(named.contract), named.quantity) });
      continue;
    }
    unnamed += 1;
    const quantity = numberOf(removal.words[0]);
    const day = row.when.key.slice(0, 10);
    steps.push({
      ms: Date.parse(row.when.tradeDate),
      order: 1,
      apply: () => {
        const candidates = [...held.entries()]
          .filter(([, position]) => position.quantity !== 0)
          .map(([key, position]) => ({ key, position, late: daysBetween(position.contract.expiration, day) }))
          .filter(({ late }) => late >= 0 && late <= BOOKING_DAYS)
          .filter(({ position }) => quantity === null || Math.abs(position.quantity) === quantity)
          .sort((a, b) => a.late - b.late || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        const best = candidates[0];
        if (best === undefined) {
          ctx.out.warn(row.line, `"${row.description}" names no option, and no option of the statement${quantity === null ? '' : ` holding ${quantity} contract${quantity === 1 ? '' : 's'}`} expired in the ${BOOKING_DAYS} days before it: kept as OTHER`);
          return;
        }
        const removed = quantity ?? Math.abs(best.position.quantity);
        placed.set(row, { event: removal.event, contract: best.position.contract, quantity: removed });
        if (candidates.length > 1) {
          ambiguous.push({
            row,
            day,
            event: removal.event,
            keys: candidates.map(({ key }) => key),
            message: `"${row.description}" names no option: read as ${best.key}, the first of ${candidates.length} open options that fit its date${quantity === null ? '' : ' and quantity'}`,
          });
        }
        removedOn.add(`${day}|${removal.event}|${best.key}`);
        remove(best.key, removed);
      },
    });
  }
  if (unnamed === 0) return placed;
  // Fills first within an instant: a removal never comes before the fill that opened what it removes.
  steps.sort((a, b) => a.ms - b.ms || a.order - b.order);
  for (const step of steps) step.apply();
  for (const { row, day, event, keys, message } of ambiguous) {
    if (!keys.every((key) => removedOn.has(`${day}|${event}|${key}`))) ctx.out.warn(row.line, message);
  }
  return placed;
}
