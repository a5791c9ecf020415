/**
 * The symbol and quote time of a chain file, read before it is stored: a backfill imports a folder oldest first
 * (docs/exposure.md §Chains that arrive by themselves), so it dates every file first. A CBOE quotedata CSV is dated
 * by its head alone (the `Date:` line above the header, the symbol from the first rows' OCC roots: the same reader
 * on the same lines as the whole file's parse); any other format is parsed whole, as its quote time may come from
 * the contracts (Schwab's quoteTimeInLong, yfinance's lastTradeDate). Runs in the exposure worker.
 */
import { parseChainFile, type ChainFormat } from '../../chains/index';
import { asTicker } from '../../../src-shared/ids';
import { looksLikeCboeCsv } from '../../chains/cboe-csv';
import { failure, ok, problemsSummary, type Result } from '../result';

export interface ChainFileDate {
  symbol: string;
  /** ISO 8601 UTC, as the ingest writes it. */
  quoteTime: string;
}

/** Lines of a quotedata file read to date it: the two lines above the header, the header, and rows enough to hold one contract. */
const HEAD_LINES = 40;

/** The text up to the end of its `lines`-th line (the whole text when shorter), never a line cut in two. */
function headOf(text: string, lines: number): string {
  let at = -1;
  for (let count = 0; count < lines; count += 1) {
    const next = text.indexOf('\n', at + 1);
    if (next < 0) return text;
    at = next;
  }
  return text.slice(0, at + 1);
}

export function peekChainFile(text: string, options: { format?: ChainFormat } = {}): Result<ChainFileDate> {
  const format = options.format ?? 'auto';
  const quotedata = format === 'cboe-csv' || (format === 'auto' && looksLikeCboeCsv(text.slice(0, 4000)));
  const parsed = quotedata ? parseChainFile(headOf(text, HEAD_LINES), { format: 'cboe-csv' }) : parseChainFile(text, options.format === undefined ? {} : { format: options.format });
  // A head that does not parse (rows with no contract, a cut file): the whole file says why, or dates it.
  const read = parsed.ok || !quotedata ? parsed : parseChainFile(text, { format: 'cboe-csv' });
  if (!read.ok) {
    return failure({ kind: 'file-refused', unsupported: false, detail: `The chain file has ${problemsSummary(read.errors, read.errorCount)}; nothing was stored.`, problems: read.errors.slice(0, 20) });
  }
  const quoteMs = Date.parse(read.snapshot.quoteTime);
  if (Number.isNaN(quoteMs)) {
    return failure({ kind: 'file-refused', unsupported: false, detail: `The snapshot's quote time "${read.snapshot.quoteTime}" is not a date.`, problems: [{ line: null, param: 'quoteTime', message: 'is not a date' }] });
  }
  return ok({ symbol: asTicker(read.snapshot.symbol), quoteTime: new Date(quoteMs).toISOString() });
}
