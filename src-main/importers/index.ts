/**
 * One pipeline for every broker file: name what is not a CSV (empty, a picture, a workbook, binary), pick the
 * importer (auto-detected from the header, or named), parse, and say plainly when a recognised file holds
 * nothing to import. Every outcome is data; nothing throws.
 */
import { BROKER_IDS, UNRECOGNISED_HEADER, type BrokerId } from '../../src-shared/api/constants';
import type { BrokerImporter, ImporterId, ParseOptions, ParseResult } from './types';
import { notACsv } from './common/sniff';
import { priceAtParFromCash } from './common/amounts';
import { MAX_KEPT_NOTES } from './common/result';
import { asMinor, formatMinor } from '../../src-shared/money';
import { knownOtherFile, type KnownFile } from './common/known-files';
import { ParseStopped } from '../checkpoint';
import { fileHead } from './common/table';
import { IMPORTERS, detectImporter, importerById } from './registry';

export { IMPORTERS, detectImporter, importerById, importerList } from './registry';

export type ParseImportOutcome =
  | { ok: true; result: ParseResult }
  | { ok: false; code: 'UNSUPPORTED_FORMAT' | 'IMPORT_FAILED'; detail: string; errors: Array<{ line: number; message: string }> };

/** `broker=` of an import as the importers take it: a built-in broker, `custom:<id>`, else auto-detection. */
export function importerIdOf(text: string | undefined): ImporterId | 'auto' {
  if (text === undefined || text === 'auto') return 'auto';
  const broker = BROKER_IDS.find((id) => id === text);
  if (broker !== undefined) return broker;
  return text.startsWith('custom:') ? `custom:${text.slice('custom:'.length)}` : 'auto';
}

/**
 * Rows kept as OTHER that move cash and that the importer did not understand (issue 28: an older statement's option
 * trades sat there, their P&L nowhere) are said in one warning per currency with their total and first lines: the cash is the account's, but no P&L figure
 * counts it. Positions list them under needsAttention (`other_rows`).
 */
export function warnOtherCash(result: ParseResult): void {
  // The rows an importer kept as OTHER because it did not understand them (it says so at their line); the ones it
  // knows (a futures mark-to-market, a sweep it names) are not in doubt.
  const unread = new Set(result.warnings.filter((w) => w.line !== null && w.message.includes('OTHER')).map((w) => w.line));
  const byCurrency = new Map<string, { rows: number; cashMinor: number; lines: number[] }>();
  for (const { line, transaction: tx } of result.transactions) {
    if (tx.type !== 'OTHER' || tx.amountMinor === 0 || !unread.has(line)) continue;
    const sum = byCurrency.get(tx.currency) ?? { rows: 0, cashMinor: 0, lines: [] };
    sum.rows += 1;
    sum.cashMinor += tx.amountMinor;
    if (sum.lines.length < 10 && !sum.lines.includes(line)) sum.lines.push(line);
    byCurrency.set(tx.currency, sum);
  }
  for (const [currency, sum] of byCurrency) {
    const lines = `line${sum.lines.length === 1 ? '' : 's'} ${sum.lines.join(', ')}${sum.rows > sum.lines.length ? ', ...' : ''}`;
    const message = `${sum.rows} row${sum.rows === 1 ? '' : 's'} kept as OTHER carry ${formatMinor(asMinor(sum.cashMinor))} ${currency} of cash (${lines}): counted in the account's cash, in no P&L figure; check what they are`;
    result.warningCount += 1;
    if (result.warnings.length < MAX_KEPT_NOTES) result.warnings.push({ line: null, message });
  }
}

/** A refusal that names what the file is and what to send instead (issue 28: "this is X; Strikebook reads Y"). */
function refusedAs(known: KnownFile, whose: string): ParseImportOutcome {
  return {
    ok: false,
    code: 'UNSUPPORTED_FORMAT',
    detail: `This is ${known.what}, not a ${whose}transaction history: ${known.advice}.`,
    errors: [{ line: 1, message: `this is ${known.what}` }],
  };
}

/** The first line as the user would see it, shortened, for "unrecognised header" messages. */
function firstLineOf(text: string): string {
  const line = fileHead(text).records[0]?.cells.map((cell) => cell.trim()).join(',') ?? '';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

/**
 * Picks the importer (auto-detected from the header unless named) and parses; never throws. `extra` holds the
 * user's saved column mappings (`custom:<id>` importers), tried before the built-in brokers.
 */
export function parseImport(text: string, broker: BrokerId | ImporterId | 'auto', options: ParseOptions, extra: readonly BrokerImporter[] = []): ParseImportOutcome {
  const named = broker === 'auto' ? null : importerById(broker, extra);
  const whose = named ? `${named.label} ` : '';
  // A scan, not a trimmed copy: the text can be 50 MB.
  if (!/\S/.test(text)) {
    return { ok: false, code: 'IMPORT_FAILED', detail: `The ${whose}file is empty: there is nothing to import.`, errors: [{ line: 1, message: 'the file is empty' }] };
  }
  const foreign = notACsv(text);
  // An XML file may be an IBKR Flex Query, which has its own advice (common/known-files.ts).
  const knownXml = foreign?.what === 'an XML file' ? knownOtherFile(fileHead(text)) : null;
  if (knownXml !== null) return refusedAs(knownXml, whose);
  if (foreign !== null) {
    return {
      ok: false,
      code: 'UNSUPPORTED_FORMAT',
      detail: `This is ${foreign.what}, not a ${whose}CSV export. ${foreign.advice}`,
      errors: [{ line: 1, message: `this is ${foreign.what}, not a CSV export` }],
    };
  }
  const importer = named ?? (broker === 'auto' ? detectImporter(text, extra) : null);
  // A file no importer (or not the one named) recognises may be a known file of another kind: say which.
  if (!importer || (named !== null && !named.detect(fileHead(text)))) {
    const known = knownOtherFile(fileHead(text));
    if (known !== null) return refusedAs(known, whose);
  }
  if (!importer) {
    const known = [...extra, ...IMPORTERS].map((i) => i.label).join(', ');
    return {
      ok: false,
      code: 'UNSUPPORTED_FORMAT',
      detail: broker === 'auto'
        ? `The file's header matches no export Strikebook knows (${known}). Pick the broker in the list if you know it, map its columns to a format of your own on the Import page, or use Strikebook's generic CSV format (a header of date, type, symbol, quantity, price, amount, and optional columns such as expiration, strike, right, commission, fees). First line: "${firstLineOf(text)}".`
        : `Unknown importer "${broker}": no broker or saved format has this id (GET /v1/import-formats lists them).`,
      errors: [{ line: 1, message: broker === 'auto' ? UNRECOGNISED_HEADER : 'unknown importer' }],
    };
  }
  let result: ParseResult;
  try {
    result = importer.parse(text, options);
  } catch (error) {
    // A parse stopped from outside (a job cancelled or past its time) is not the file's fault: it goes on up.
    if (error instanceof ParseStopped) throw error;
    // Importers return errors as data; a throw is a bug, but the user still gets a clear 422, not a 500.
    return { ok: false, code: 'IMPORT_FAILED', detail: `The ${importer.label} importer could not read the file: ${error instanceof Error ? error.message : String(error)}`, errors: [{ line: 1, message: 'unreadable file' }] };
  }
  // Bills and bonds priced in percent of par, whichever importer read them (common/amounts.ts).
  if (result.errors.length === 0) {
    priceAtParFromCash(result.transactions);
    warnOtherCash(result);
  }
  if (result.errors.length === 0 && result.rows === 0 && result.transactions.length === 0) {
    return { ok: false, code: 'IMPORT_FAILED', detail: `The ${importer.label} file has its header but no transactions: there is nothing to import.`, errors: [{ line: 1, message: 'no transaction rows below the header' }] };
  }
  return { ok: true, result };
}
