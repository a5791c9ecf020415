/**
 * Chain snapshot parsers (docs/exposure.md): CBOE quotedata CSV, CBOE delayed-quotes JSON, Schwab / TD Ameritrade API
 * chain JSON, yfinance option_chain CSV dumps, and the generic CSV and JSON formats of docs/exposure.md.
 * `parseChainFile` detects the format unless one is given.
 */
import { looksLikeCboeCsv, parseCboeCsv } from './cboe-csv';
import { looksLikeCboeJson, parseCboeJson, parseCboeJsonDocument } from './cboe-json';
import { MAX_CHAIN_CONTRACTS, type ChainFormat, type ChainParseOptions, type ChainParseResult } from './common';
import { parseGenericCsv } from './generic-csv';
import { parseGenericJson, parseGenericJsonDocument } from './generic-json';
import { readJsonChain } from './json';
import { looksLikeSchwabJson, parseSchwabJson, parseSchwabJsonDocument } from './schwab-json';
import { looksLikeYfinanceCsv, parseYfinanceCsv } from './yfinance-csv';

export type { ChainFormat, ChainParseError, ChainParseOptions, ChainParseResult, OverrideNames } from './common';
export { CLI_OVERRIDE_NAMES, parseOccSymbol, QUERY_OVERRIDE_NAMES, underlyingOfRoot } from './common';
export { parseCboeCsv, parseCboeDateLine } from './cboe-csv';
export { parseCboeJson } from './cboe-json';
export { parseGenericCsv } from './generic-csv';
export { parseGenericJson } from './generic-json';
export { parseSchwabJson } from './schwab-json';
export { parseYfinanceCsv } from './yfinance-csv';

function jsonFormatOf(root: unknown): 'cboe-json' | 'schwab-json' | 'generic-json' {
  return looksLikeCboeJson(root) ? 'cboe-json' : looksLikeSchwabJson(root) ? 'schwab-json' : 'generic-json';
}

/** The format of a chain file from its first characters: JSON by its opening brace, CBOE CSV by its header. */
export function detectChainFormat(text: string): Exclude<ChainFormat, 'auto'> {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    const read = readJsonChain(start, MAX_CHAIN_CONTRACTS);
    if (read.ok) return jsonFormatOf(read.document.root);
    // Invalid (or oversized) JSON: the JSON parser reports where it breaks.
    const head = start.slice(0, 2000);
    if (/"data"\s*:/.test(head)) return 'cboe-json';
    return /"(?:call|put)ExpDateMap"\s*:/.test(head) ? 'schwab-json' : 'generic-json';
  }
  if (looksLikeCboeCsv(start)) return 'cboe-csv';
  return looksLikeYfinanceCsv(start) ? 'yfinance-csv' : 'generic-csv';
}

/**
 * A JSON chain file read once, its format decided on the document without its contracts (json.ts, readJsonChain: the
 * contracts are parsed one at a time by the format's parser, never all at once).
 */
function parseJsonChain(body: string, options: ChainParseOptions): ChainParseResult {
  const read = readJsonChain(body, MAX_CHAIN_CONTRACTS);
  if (!read.ok) return read;
  const { document } = read;
  switch (jsonFormatOf(document.root)) {
    case 'cboe-json':
      return parseCboeJsonDocument(document, options);
    case 'schwab-json':
      return parseSchwabJsonDocument(document, options);
    case 'generic-json':
      return parseGenericJsonDocument(document, options);
  }
}

export function parseChainFile(text: string, options: ChainParseOptions = {}): ChainParseResult {
  // Scans, not trimmed copies: the text can be 50 MB.
  if (!/\S/.test(text)) return { ok: false, errors: [{ line: null, message: 'empty file' }] };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (options.format === undefined || options.format === 'auto') {
    const first = body.trimStart().charAt(0);
    if (first === '{' || first === '[') return parseJsonChain(body, options);
  }
  const format = options.format === undefined || options.format === 'auto' ? detectChainFormat(text) : options.format;
  return PARSERS[format](body, options);
}

/** The parser of each format (a format named by the request, or detected). */
const PARSERS: Record<Exclude<ChainFormat, 'auto'>, (body: string, options: ChainParseOptions) => ChainParseResult> = {
  'cboe-csv': parseCboeCsv,
  'cboe-json': parseCboeJson,
  'schwab-json': parseSchwabJson,
  'yfinance-csv': parseYfinanceCsv,
  'generic-json': parseGenericJson,
  'generic-csv': parseGenericCsv,
};
