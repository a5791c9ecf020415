/**
 * The format a user maps on the Import page, as data (FormatMapper.tsx is its form): the fields a format can map,
 * first guesses from the header and the action words, the part of the file the preview reads, and the draft sent
 * to the server.
 */
import {
  IMPORT_FORMAT_LIMITS,
  TRANSACTION_TYPES,
  type FormatAmountSign,
  type FormatDateLayout,
  type FormatZone,
  type TransactionType,
} from '../../../src-shared/api/constants';
import type { ImportFormatDraftT } from '../../../src-shared/api/schemas';

/** The columns a format can map, in the order the form shows them: when and what, the option's parts, the fill, the rest. */
export const FIELD_LABELS = {
  date: 'Date', time: 'Time (own column)', type: 'Type / action', symbol: 'Symbol',
  optionText: 'Option (OCC or written out)', root: 'Option root', expiration: 'Expiration', strike: 'Strike', right: 'Call / put',
  quantity: 'Quantity', price: 'Price', multiplier: 'Multiplier', commission: 'Commission', fees: 'Fees', amount: 'Amount (net)',
  account: 'Account', currency: 'Currency', description: 'Description', orderId: 'Order id', rowId: 'Row id (unique)',
} as const;
export type FieldKey = keyof typeof FIELD_LABELS;
/** What every format must map (the server refuses a mapping without them too). */
const REQUIRED_FIELDS: ReadonlySet<FieldKey> = new Set(['date', 'type', 'quantity']);
export const FIELDS = (Object.keys(FIELD_LABELS) as FieldKey[]).map((key) => ({ key, label: FIELD_LABELS[key], required: REQUIRED_FIELDS.has(key) }));
export type Columns = Partial<Record<FieldKey, string>>;

/** First guesses from the header's names; the user corrects them. */
const GUESSES: Array<[FieldKey, RegExp]> = [
  ['date', /date|day|^time$|when/],
  ['type', /action|^type$|side|activity|trans.*code|^code$/],
  ['symbol', /symbol|ticker|instrument/],
  ['quantity', /qty|quantity|shares|contracts/],
  ['price', /price|^fill$/],
  ['commission', /comm/],
  ['fees', /fee/],
  ['amount', /amount|^net|total|proceeds/],
  ['account', /account|acct/],
  ['currency', /currency|ccy/],
  ['description', /desc/],
  ['orderId', /order/],
  ['multiplier', /multiplier/],
];

export function guessColumns(header: readonly string[]): Columns {
  const columns: Columns = {};
  const taken = new Set<string>();
  for (const [field, pattern] of GUESSES) {
    const found = header.find((cell) => cell.trim() !== '' && !taken.has(cell) && pattern.test(cell.trim().toLowerCase()));
    if (found !== undefined) {
      columns[field] = found;
      taken.add(found);
    }
  }
  return columns;
}

export function guessLayout(cell: string | undefined): FormatDateLayout {
  const text = (cell ?? '').trim();
  if (/^\d{4}-/.test(text)) return 'YYYY-MM-DD';
  const first = /^(\d{1,2})[/.-]/.exec(text);
  return first !== null && Number(first[1]) > 12 ? 'DD/MM/YYYY' : 'MM/DD/YYYY';
}

const WORD_GUESSES: Array<[RegExp, TransactionType]> = [
  [/buy.*open|^bto$/, 'BUY_TO_OPEN'],
  [/sell.*open|^sto$/, 'SELL_TO_OPEN'],
  [/buy.*(close|cover)|^btc$/, 'BUY_TO_CLOSE'],
  [/sell.*close|^stc$/, 'SELL_TO_CLOSE'],
  [/expir/, 'EXPIRATION'],
  [/assign/, 'ASSIGNMENT'],
  [/exercis/, 'EXERCISE'],
  [/^buy|bought/, 'BUY'],
  [/^sell|sold/, 'SELL'],
  [/div/, 'DIVIDEND'],
  [/interest/, 'INTEREST'],
  [/fee/, 'FEE'],
  [/deposit/, 'DEPOSIT'],
  [/withdraw/, 'WITHDRAWAL'],
  [/split/, 'SPLIT'],
];

/** A word's likely type, or '' when the user must say. */
export function guessType(word: string): TransactionType | '' {
  const text = word.trim().toLowerCase();
  const named = text.toUpperCase().replace(/[\s-]+/g, '_');
  const exact = TRANSACTION_TYPES.find((type) => type === named);
  if (exact !== undefined) return exact;
  return WORD_GUESSES.find(([pattern]) => pattern.test(text))?.[1] ?? '';
}

/**
 * Bytes of the file the preview reads: half the server's bound, so that the JSON body stays under the API's 1 MB
 * body limit even when every cell is quoted (each `"` is escaped).
 */
const PREVIEW_BYTES = IMPORT_FORMAT_LIMITS.previewChars / 2;

/** The start of the file the preview reads, cut at a line end. */
export async function previewText(file: File): Promise<string> {
  const text = await file.slice(0, PREVIEW_BYTES).text();
  if (file.size <= PREVIEW_BYTES) return text;
  const cut = text.lastIndexOf('\n');
  return cut > 0 ? text.slice(0, cut + 1) : text;
}

export interface Settings {
  name: string;
  columns: Columns;
  layout: FormatDateLayout;
  zone: FormatZone;
  sign: FormatAmountSign;
  words: Array<{ word: string; type: TransactionType | '' }>;
}

export function toDraft(header: string[], s: Settings): ImportFormatDraftT | null {
  const c = s.columns;
  if (c.date === undefined || c.type === undefined || c.quantity === undefined) return null;
  const option = { text: c.optionText, root: c.root, expiration: c.expiration, strike: c.strike, right: c.right };
  const definedOption = Object.fromEntries(Object.entries(option).filter(([, v]) => v !== undefined));
  const optional = (key: 'symbol' | 'price' | 'multiplier' | 'commission' | 'fees' | 'account' | 'currency' | 'description' | 'orderId' | 'rowId') => (c[key] === undefined ? {} : { [key]: c[key] });
  return {
    name: s.name.trim(),
    header,
    mapping: {
      date: { column: c.date, layout: s.layout, zone: s.zone, ...(c.time === undefined ? {} : { time: c.time }) },
      type: { column: c.type, words: s.words.flatMap(({ word, type }) => (type === '' ? [] : [{ word, type }])) },
      quantity: c.quantity,
      amount: { sign: s.sign, ...(c.amount === undefined ? {} : { column: c.amount }) },
      ...(Object.keys(definedOption).length > 0 ? { option: definedOption } : {}),
      ...optional('symbol'),
      ...optional('price'),
      ...optional('multiplier'),
      ...optional('commission'),
      ...optional('fees'),
      ...optional('account'),
      ...optional('currency'),
      ...optional('description'),
      ...optional('orderId'),
      ...optional('rowId'),
    },
  };
}
