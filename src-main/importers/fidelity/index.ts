/**
 * Fidelity "Accounts history" CSV, in its layouts:
 * - single account: `Run Date,Action,Symbol,Description,Type,Quantity,Price ($),Commission ($),Fees ($),
 *   Accrued Interest ($),Amount ($),Settlement Date` (older files say `Security Description`, `Security Type`);
 * - all accounts: `Run Date,Account,Account Number,Action,Symbol,Description,Type,Exchange Quantity,Exchange
 *   Currency,Currency,Price,Quantity,Exchange Rate,Commission,Fees,Accrued Interest,Amount,Settlement Date`,
 *   several accounts in one file.
 * Columns are found by name. Blank and comma-padded lines come before the header, disclaimer paragraphs and
 * "Date downloaded" after the data. Options are written ` -AAPL240119C190`; the action says what happened
 * ("YOU SOLD OPENING TRANSACTION ...", "EXPIRED ...", "ASSIGNED ..."), sometimes with an "as of" date, which
 * then is the trade date. Dates only: 16:00 New York. Quantities are signed (sales negative).
 */
import { DateTime } from 'luxon';
import type { RawTransaction, TransactionType } from '../../../src-shared/journal/model';
import { parseMoney, type RowReader } from '../common/cells';
import { dayEndIso, moneyStatement } from '../common/statements';
import { dayToUtc, mdyToYmd } from '../common/dates';
import { optionFields, withOption, type OptionFields } from '../common/options';
import { ResultCollector, RowIdentity, accountFor, transaction } from '../common/result';
import { HEAD_RECORDS, headerNear, tableReaders } from '../common/table';
import type { BrokerImporter, ParseOptions, ParseResult } from '../types';
import { BROKER_LABELS } from '../../../src-shared/api/constants';
import { ZERO_MINOR, formatMinor, absMinor } from '../../../src-shared/money';

export const FIDELITY_SOURCE = 'fidelity-csv';

/** Each logical column and the header spellings Fidelity has used for it. */
const ALIASES = {
  description: ['Description', 'Security Description'],
  price: ['Price ($)', 'Price'],
  commission: ['Commission ($)', 'Commission'],
  fees: ['Fees ($)', 'Fees'],
  amount: ['Amount ($)', 'Amount'],
  accountName: ['Account', 'Account Name'],
  cashBalance: ['Cash Balance ($)', 'Cash Balance'],
} as const;
const REQUIRED = ['Run Date', 'Action', 'Symbol', 'Quantity', 'price', 'amount'];

function isFidelityHeader(names: Set<string>): boolean {
  return names.has('run date') && names.has('action') && names.has('symbol') && (names.has('amount ($)') || names.has('amount'));
}

/** ` -AAPL240119C190`, `-SPY240119P452.5` → OCC fields. */
export function parseFidelityOption(text: string): OptionFields | null {
  const match = /^-([A-Z0-9.]+?)(\d{2})(\d{2})(\d{2})([CP])(\d+(?:\.\d+)?)$/.exec(text.trim().toUpperCase());
  if (!match) return null;
  const [, root = '', yy, mm, dd, rightText, strikeText = ''] = match;
  return optionFields(root, `20${yy}-${mm}-${dd}`, rightText === 'C' ? 'C' : 'P', Number(strikeText));
}

/** `as of Jan-19-2024`, `AS OF 01-19-24`, `as of 01/19/2024` inside an action → `YYYY-MM-DD`. */
export function asOfDate(action: string): string | null {
  const named = /\bas of ([A-Z]{3})-(\d{1,2})-(\d{4})\b/i.exec(action);
  if (named) {
    const dt = DateTime.fromFormat(`${named[1]}-${named[2]}-${named[3]}`, 'MMM-d-yyyy', { locale: 'en-US' });
    return dt.isValid ? dt.toISODate() : null;
  }
  const numeric = /\bas of (\d{1,2})[-/](\d{1,2})[-/](\d{2}|\d{4})\b/i.exec(action);
  return numeric ? mdyToYmd(`${numeric[1]}/${numeric[2]}/${numeric[3]}`) : null;
}

/** Shares that arrive without cash: a merger's new shares (the old ones' row, when there, is another line). */
type Mapped = TransactionType | 'CASH' | 'SHARES_IN';

/** The action's type; `null` for an action we do not know. Cash movements are signed later by the amount. */
function actionType(action: string, isOption: boolean): Mapped | null {
  const text = action.toUpperCase();
  if (text.includes('OPENING TRANSACTION')) return text.includes('YOU BOUGHT') ? 'BUY_TO_OPEN' : 'SELL_TO_OPEN';
  if (text.includes('CLOSING TRANSACTION')) return text.includes('YOU BOUGHT') ? 'BUY_TO_CLOSE' : 'SELL_TO_CLOSE';
  if (isOption && text.startsWith('EXPIRED')) return 'EXPIRATION';
  if (isOption && text.startsWith('ASSIGNED')) return 'ASSIGNMENT';
  if (isOption && text.startsWith('EXERCISED')) return 'EXERCISE';
  if (isOption) return null;
  // `YOU SOLD SHORT SALE ...`, `YOU BOUGHT SHORT COVER ...` (or `... TO COVER`).
  if (text.startsWith('YOU SOLD') && text.includes('SHORT SALE')) return 'SELL_SHORT';
  if (text.startsWith('YOU BOUGHT') && /SHORT COVER|TO COVER/.test(text)) return 'BUY_TO_COVER';
  if (text.startsWith('YOU BOUGHT') || text.startsWith('REINVESTMENT')) return 'BUY';
  if (text.startsWith('YOU SOLD') || text.startsWith('REDEMPTION PAYOUT')) return 'SELL';
  if (text.startsWith('DIVIDEND RECEIVED') || text.includes('FOREIGN TAX') || text.includes('NON-RESIDENT TAX') || /^(?:SHORT|LONG)-TERM CAP GAIN/.test(text)) return 'DIVIDEND';
  if (text.includes('INTEREST') || /\bINT\b/.test(text)) return 'INTEREST';
  if (text.includes('FEE CHARGED') || text.startsWith('ADR FEE') || text.includes(' FEE ')) return 'FEE';
  if (text.startsWith('MERGER') || text.startsWith('REVERSE SPLIT')) return 'SHARES_IN';
  if (/ELECTRONIC FUNDS TRANSFER|DIRECT DEPOSIT|DIRECT DEBIT|CASH CONTRIBUTION|TRANSFERRED (?:FROM|TO)|WIRE TRANSFER|PARTIAL DISTRIBUTION|CHECK RECEIVED|CHECK PAID|BILL PAYMENT|DEBIT CARD/.test(text)) {
    return 'CASH';
  }
  return null;
}

/** `Brokerage` and `333333333` → `Brokerage 333333333`: the number keeps two accounts of one name apart. */
function accountLabel(reader: RowReader): string {
  const name = reader.text('accountName');
  const number = reader.text('Account Number');
  if (name !== '' && number !== '' && !name.includes(number)) return `${name} ${number}`;
  return name || number;
}

/**
 * Bonds are priced in percent of face (`55000` face `@ 90.67` costs 49,868.50, plus accrued interest): 0.01 is
 * the multiplier that makes price × quantity × multiplier the cash. Chosen only when it fits the amount within
 * 2% (accrued interest and fees) and 1 does not.
 */
function bondMultiplier(tx: RawTransaction): number {
  if ((tx.type !== 'BUY' && tx.type !== 'SELL') || tx.quantity === 0 || tx.amountMinor === 0) return 1;
  const cash = Math.abs(tx.amountMinor);
  const near = (gross: number): boolean => Math.abs(gross - cash) <= cash * 0.02;
  const gross = tx.priceMinor * tx.quantity;
  return !near(gross) && near(gross / 100) ? 0.01 : 1;
}

export function parseFidelity(text: string, options: ParseOptions): ParseResult {
  const out = new ResultCollector('fidelity', FIDELITY_SOURCE, 'newest-first');
  const ids = new RowIdentity();
  const readers = tableReaders(out, text, {
    isHeader: isFidelityHeader,
    required: REQUIRED,
    aliases: ALIASES,
    what: 'a Fidelity accounts history',
    headerHint: '"Run Date,Action,Symbol,...,Amount ($)" or "Run Date,Account,Account Number,Action,..."',
  });
  const balances = new Map<string, CashBalances>();
  const moves: ShareMove[] = [];
  for (const reader of readers) {
    const tx = mapRow(out, reader, options, ids, moves);
    if (tx !== null && reader.has('cashBalance')) noteBalance(balances, reader, tx);
  }
  mapShareMoves(out, moves);
  stateBalances(out, balances);
  return out.result();
}

/** An account's `Cash Balance ($)` column: the balance after its newest row and after its oldest (the file lists newest first). */
interface CashBalances {
  newest: { line: number; day: string; balanceMinor: number };
  oldest: { balanceMinor: number; amountMinor: number };
  currency: string;
  /** A balance that is no amount ("Processing": not settled yet) or a second currency: nothing is stated. */
  usable: boolean;
}

function noteBalance(balances: Map<string, CashBalances>, reader: RowReader, tx: RawTransaction): void {
  const cell = reader.text('cashBalance');
  const balance = parseMoney(cell);
  const usable = balance.ok && balance.value !== null;
  const balanceMinor = usable ? (balance.value ?? 0) : 0;
  const known = balances.get(tx.accountName);
  if (known === undefined) {
    balances.set(tx.accountName, { newest: { line: reader.line, day: reader.date('Run Date', mdyToYmd) ?? '', balanceMinor }, oldest: { balanceMinor, amountMinor: tx.amountMinor }, currency: tx.currency, usable });
    return;
  }
  known.oldest = { balanceMinor, amountMinor: tx.amountMinor };
  if (!usable || tx.currency !== known.currency) known.usable = false;
}

/**
 * Per account, the cash its rows moved as its `Cash Balance ($)` column says: the balance after the newest row less the
 * balance before the oldest (docs/importers.md §Reconciliation). Not stated for an account whose column says
 * "Processing" anywhere (an unsettled row has no balance yet) or mixes currencies.
 */
function stateBalances(out: ResultCollector, balances: ReadonlyMap<string, CashBalances>): void {
  for (const [accountName, account] of balances) {
    const asOf = dayEndIso(account.newest.day);
    if (!account.usable || asOf === null) continue;
    const valueMinor = account.newest.balanceMinor - (account.oldest.balanceMinor - account.oldest.amountMinor);
    out.state(moneyStatement({ what: 'cash_total', label: 'Cash Balance ($): the newest row’s balance less the balance before the oldest', line: account.newest.line, asOf, currency: account.currency, accountName, valueMinor }));
  }
}

/** A row of shares moved by a corporate action (MERGER, REVERSE SPLIT), the rows of one action sharing its #REOR id. */
interface ShareMove {
  line: number;
  tx: RawTransaction;
  /** Signed: + in, − out. */
  quantity: number;
  reor: string | null;
  split: boolean;
  /** What to say of the row when it has no counterpart (the file has no basis for shares that came in). */
  warning: string;
}

/**
 * The rows of one action (the new shares in, the old out, one #REOR id and day) become one SPLIT or SYMBOL_CHANGE
 * whose ratio is the quantities' (docs/journal.md §Corporate actions); a row without its counterpart keeps its old
 * reading (shares in at zero basis, shares out as OTHER) and its warning.
 */
function mapShareMoves(out: ResultCollector, moves: readonly ShareMove[]): void {
  const used = new Set<ShareMove>();
  const keyOf = (m: ShareMove) => `${m.reor ?? ''}|${m.tx.tradeDate}|${m.tx.accountName}`;
  // The old shares' rows by #REOR id, day and account: one pass however many rows a file holds.
  const outgoingByKey = new Map<string, ShareMove[]>();
  for (const m of moves) {
    if (m.quantity >= 0 || m.reor === null) continue;
    const list = outgoingByKey.get(keyOf(m));
    if (list) list.push(m);
    else outgoingByKey.set(keyOf(m), [m]);
  }
  for (const incoming of moves) {
    if (incoming.quantity <= 0 || incoming.reor === null) continue;
    const outgoing = outgoingByKey.get(keyOf(incoming))?.shift();
    if (outgoing === undefined) continue;
    used.add(incoming);
    used.add(outgoing);
    const oldSymbol = outgoing.tx.symbol;
    const ratio = incoming.quantity / -outgoing.quantity;
    const renamed = oldSymbol !== incoming.tx.symbol;
    const split = incoming.split;
    const tx: RawTransaction = {
      ...incoming.tx,
      type: split ? 'SPLIT' : 'SYMBOL_CHANGE',
      brokerRowId: `${outgoing.tx.brokerRowId}+${incoming.tx.brokerRowId}`,
      quantity: split ? incoming.quantity + outgoing.quantity : incoming.quantity,
      priceMinor: ZERO_MINOR,
      amountMinor: ZERO_MINOR,
      description: `${outgoing.tx.description} / ${incoming.tx.description}`,
      corporateAction: { type: split ? 'split' : 'merger', symbol: oldSymbol, newSymbol: renamed ? incoming.tx.symbol : null, ratio, cashPerShareMinor: null, costFraction: null, quantity: null },
    };
    if (!split || renamed) tx.previousSymbol = oldSymbol;
    out.add(Math.min(incoming.line, outgoing.line), tx);
    out.merge([incoming.line, outgoing.line], `${split ? 'reverse split' : 'merger'} ${oldSymbol} → ${incoming.tx.symbol} (#REOR ${incoming.reor}) as one ${tx.type}`);
  }
  for (const move of moves) {
    if (used.has(move)) continue;
    out.warn(move.line, move.warning);
    out.add(move.line, move.tx);
  }
}

function mapRow(out: ResultCollector, reader: RowReader, options: ParseOptions, ids: RowIdentity, moves: ShareMove[]): RawTransaction | null {
  const runDate = reader.date('Run Date', mdyToYmd);
  const action = reader.text('Action');
  const rawSymbol = reader.text('Symbol');
  const quantity = reader.number('Quantity');
  const price = reader.money('price');
  const commission = reader.money('commission');
  const fees = reader.money('fees');
  const amount = reader.money('amount');
  const option = rawSymbol.startsWith('-') ? parseFidelityOption(rawSymbol) : null;
  if (rawSymbol.startsWith('-') && !option) reader.fail('Symbol', `not a Fidelity option symbol: "${rawSymbol}"`);
  const tradeDate = dayToUtc(asOfDate(action) ?? runDate ?? '');
  if (!reader.ok || runDate === null || tradeDate === null) return null;

  const mapped = actionType(action, option !== null);
  let type: TransactionType;
  if (mapped === null) {
    type = 'OTHER';
    out.warn(reader.line, `unknown Fidelity action "${action}": kept as OTHER`);
  } else if (mapped === 'CASH') {
    type = amount >= 0 ? 'DEPOSIT' : 'WITHDRAWAL';
  } else if (mapped === 'SHARES_IN') {
    type = quantity > 0 ? 'BUY' : 'OTHER';
  } else {
    type = mapped;
  }
  const accountName = accountFor(accountLabel(reader), options, 'Fidelity');
  let tx: RawTransaction = transaction({
    accountName,
    brokerRowId: ids.next([accountName, runDate, action, rawSymbol, quantity, price, amount]),
    type,
    tradeDate,
    source: FIDELITY_SOURCE,
    symbol: rawSymbol,
    underlying: rawSymbol,
    quantity: Math.abs(quantity),
    priceMinor: absMinor(price),
    amountMinor: amount,
    commissionMinor: absMinor(commission),
    feesMinor: absMinor(fees),
    currency: reader.value('Currency').toUpperCase() || 'USD',
    // The action carries the whole story ("YOU SOLD OPENING TRANSACTION PUT (AAPL) ..."); Description is a short name.
    description: action || reader.text('description'),
  });
  if (mapped === 'SHARES_IN' && option === null) {
    // A merger's shares arrive without cash and without basis in the file; Fidelity's Amount on the row is
    // their market value, not money that moved. Paired with the old shares' row they are one action (mapShareMoves).
    tx = { ...tx, priceMinor: ZERO_MINOR, amountMinor: ZERO_MINOR };
    const warning = `${action}: ${Math.abs(quantity)} ${rawSymbol} ${type === 'BUY' ? 'came in at zero cost basis (the file has neither their basis nor the row of the old shares), so a later sale realizes the full proceeds' : 'left the account: kept as OTHER'}; the Amount column (${formatMinor(amount)}) is their value, not cash`;
    moves.push({ line: reader.line, tx, quantity, reor: /#REOR\s*(\S+)/i.exec(action)?.[1] ?? null, split: /^REVERSE SPLIT/i.test(action), warning });
    return tx;
  }
  if (option) tx = withOption(tx, option);
  else tx.multiplier = bondMultiplier(tx);
  out.add(reader.line, tx);
  return tx;
}

export const fidelityImporter: BrokerImporter = {
  id: 'fidelity',
  label: BROKER_LABELS.fidelity,
  formats: 'accounts history CSV (one account, or all accounts with Account and Account Number)',
  // The header may stand anywhere in the head (lines of text before it): all of it is read.
  detect: headerNear(isFidelityHeader, HEAD_RECORDS),
  parse: parseFidelity,
};
