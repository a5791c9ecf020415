/**
 * Broker positions files for POST /v1/journal/reconcile (docs/importers.md §Positions files): what an account holds
 * at an instant, as the brokers export it (Schwab, Fidelity, tastytrade, Interactive Brokers, E*TRADE), the generic
 * `symbol,quantity[,cost]` CSV, or JSON `{positions: [...]}`. Every reader returns the positions with their lines,
 * or line-numbered problems; none throws. Robinhood offers no positions export (its account statements are PDF).
 */
import { Columns } from '../common/cells';
import { isBlankRecord, parseCsv } from '../common/csv';
import { nameSet } from '../common/table';
import { isoToYmd } from '../common/dates';
import { rightOf, type OptionFields } from '../common/options';
import { detectImporter } from '../registry';
import { BROKER_POSITION_READERS } from './brokers';
import { MAX_POSITION_ROWS, moneyCell, numberCell, PositionsCollector, positionOf, type PositionsOutcome, type PositionsReader } from './common';

export { MAX_POSITION_ROWS, type PositionsFile, type PositionsOutcome, type PositionsProblem } from './common';

/** The generic CSV: a header with `symbol` and `quantity` (any case), optional `cost`, `account`, `currency`, `multiplier`. */
const GENERIC: PositionsReader = {
  format: 'generic-csv',
  label: 'Generic positions CSV (symbol,quantity[,cost])',
  detect: (names) => names.has('symbol') && names.has('quantity'),
  read(table, out) {
    const { records, headerIndex, columns } = table;
    for (const record of records.slice(headerIndex + 1)) {
      if (isBlankRecord(record)) continue;
      const cell = (name: string) => (record.cells[columns.index(name) ?? -1] ?? '').trim();
      const quantity = numberCell(out, record.line, 'quantity', cell('quantity'));
      const costMinor = moneyCell(out, record.line, 'cost', cell('cost'));
      const currency = cell('currency').toUpperCase() || 'USD';
      const multiplier = cell('multiplier') === '' ? null : numberCell(out, record.line, 'multiplier', cell('multiplier'));
      if (multiplier !== null && !(multiplier > 0)) out.problem(record.line, 'multiplier', `must be above 0: "${cell('multiplier')}"`);
      if (!/^[A-Z]{3}$/.test(currency)) out.problem(record.line, 'currency', `not a currency: "${cell('currency')}"`);
      if (quantity === null) {
        if (cell('quantity') === '') out.problem(record.line, 'quantity', 'empty');
        continue;
      }
      const position = positionOf({ line: record.line, account: cell('account') || null, symbol: cell('symbol'), quantity, costMinor, currency, multiplier });
      if (position === null) out.problem(record.line, 'symbol', `not a ticker or an option: "${cell('symbol')}"`);
      else out.add(position);
    }
  },
};

const READERS: readonly PositionsReader[] = [...BROKER_POSITION_READERS, GENERIC];

/** How far down a header may sit (titles, account summaries above it). */
const HEADER_SEARCH = 40;

function parseJsonPositions(text: string): PositionsOutcome {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, detail: `The body is not JSON: ${error instanceof Error ? error.message : String(error)}.`, problems: [] };
  }
  const list = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { positions?: unknown }).positions : undefined;
  if (!Array.isArray(list)) return { ok: false, detail: 'JSON positions come as {"positions": [{"symbol": "AAPL", "quantity": 100, "cost": 18000.5}, ...]}.', problems: [{ line: null, field: 'positions', message: 'must be an array' }] };
  const out = new PositionsCollector();
  if (list.length > MAX_POSITION_ROWS) return { ok: false, detail: `At most ${MAX_POSITION_ROWS.toLocaleString('en-US')} positions.`, problems: [{ line: null, field: 'positions', message: `${list.length} items` }] };
  list.forEach((item: unknown, index) => {
    const field = (name: string) => `positions.${index}.${name}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      out.problem(null, `positions.${index}`, 'must be an object');
      return;
    }
    const entry = item as Record<string, unknown>;
    const known = new Set(['symbol', 'quantity', 'cost', 'currency', 'account', 'multiplier', 'underlying', 'expiration', 'strike', 'right']);
    for (const key of Object.keys(entry)) if (!known.has(key)) out.problem(null, field(key), 'is not a field of a position (symbol, quantity, cost, currency, account, multiplier; an option not in OCC form: underlying, expiration, strike, right)');
    const { symbol, quantity, cost, currency = 'USD', account = null, multiplier = null, underlying, expiration, strike, right } = entry;
    if (typeof symbol !== 'string' || symbol.trim() === '' || symbol.length > 64) return out.problem(null, field('symbol'), 'must be a ticker or an option symbol');
    if (typeof quantity !== 'number' || !Number.isFinite(quantity) || Math.abs(quantity) > 1e9) return out.problem(null, field('quantity'), 'must be a number (signed: − short)');
    if (cost !== undefined && cost !== null && (typeof cost !== 'number' || !Number.isFinite(cost) || Math.abs(cost) > 1e11)) return out.problem(null, field('cost'), 'must be a number (the position’s cost)');
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return out.problem(null, field('currency'), 'must be 3 capital letters');
    if (account !== null && (typeof account !== 'string' || account.length > 64)) return out.problem(null, field('account'), 'must be a name of at most 64 characters');
    if (multiplier !== null && (typeof multiplier !== 'number' || !(multiplier > 0) || multiplier > 1e6)) return out.problem(null, field('multiplier'), 'must be a number above 0 (shares per contract)');
    let option: OptionFields | null | undefined;
    if (expiration !== undefined || strike !== undefined || right !== undefined) {
      const parts = typeof underlying === 'string' && typeof expiration === 'string' && isoToYmd(expiration) !== null && typeof strike === 'number' && strike > 0 && typeof right === 'string' ? rightOf(right) : null;
      if (parts === null) return out.problem(null, field('expiration'), 'an option by its parts needs underlying, expiration (YYYY-MM-DD), strike (> 0) and right (C or P)');
      option = { symbol: symbol.trim(), underlying: String(underlying), expiration: String(expiration), strike: Number(strike), right: parts };
    }
    const position = positionOf({ line: null, account, symbol, quantity, costMinor: typeof cost === 'number' ? Math.round(cost * 10_000) : null, currency, multiplier, ...(option === undefined ? {} : { option }) });
    if (position === null) out.problem(null, field('symbol'), `not a ticker or an option: "${symbol}"`);
    else out.add(position);
  });
  return finish(out, 'json', 'JSON {positions: [...]}');
}

function finish(out: PositionsCollector, format: string, label: string): PositionsOutcome {
  if (out.problemCount > 0) {
    const more = out.problemCount - out.problems.length;
    return { ok: false, detail: `The ${label} has ${out.problemCount} problem${out.problemCount === 1 ? '' : 's'}${more > 0 ? ` (the first ${out.problems.length} listed)` : ''}; nothing was compared.`, problems: out.problems };
  }
  return { ok: true, file: { format, label, positions: out.positions, statedAsOf: out.statedAsOf, skipped: out.skipped } };
}

/** Reads a positions file (CSV of a known layout, or JSON); never throws. */
export function parsePositions(text: string): PositionsOutcome {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/^\s*[{[]/.test(body)) return parseJsonPositions(body);
  const parsed = parseCsv(body);
  if (parsed.error) return { ok: false, detail: 'The file is not a readable CSV.', problems: [{ line: parsed.error.line, field: null, message: parsed.error.message }] };
  const records = parsed.records;
  let seen = 0;
  for (let index = 0; index < records.length && seen < HEADER_SEARCH; index += 1) {
    const record = records[index];
    if (record === undefined || isBlankRecord(record)) continue;
    seen += 1;
    const names = nameSet(record.cells);
    const reader = READERS.find((candidate) => candidate.detect(names, records.slice(0, index)));
    if (reader === undefined) continue;
    // A transaction history has a symbol and a quantity too: it is no positions file.
    if (reader === GENERIC && detectImporter(body) !== null) break;
    const out = new PositionsCollector();
    reader.read({ records, headerIndex: index, columns: new Columns(record.cells) }, out);
    return finish(out, reader.format, reader.label);
  }
  const history = detectImporter(body);
  if (history !== null) {
    return {
      ok: false,
      detail: `This is a ${history.label} transaction history, not a positions file: import it on the Import page (POST /v1/imports). To check the journal against the broker, export the account's positions (what it holds now) and send that here.`,
      problems: [],
    };
  }
  const first = records.find((record) => !isBlankRecord(record));
  return {
    ok: false,
    detail:
      'The file is no positions export Strikebook knows (Schwab, Fidelity, tastytrade, Interactive Brokers, E*TRADE) and has no header with symbol and quantity. Send the broker’s positions export, a CSV "symbol,quantity[,cost]" or JSON {"positions": [...]}.',
    problems: first === undefined ? [{ line: 1, field: null, message: 'the file is empty' }] : [{ line: first.line, field: null, message: `first line: "${first.cells.join(',').slice(0, 120)}"` }],
  };
}
