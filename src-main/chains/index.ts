/**
 * Chain snapshot parsers (docs/exposure.md): CBOE quotedata CSV, CBOE delayed-quotes JSON, Schwab / TD Ameritrade API
 * chain JSON, yfinance option_chain CSV dumps, and the generic CSV and JSON formats of docs/exposure.md.
 * `parseChainFile` detects the format unless one is given.
 */
import { looksLikeCboeCsv, parseCboeCsv } from './cboe-csv';
import { looksLikeCboeJson, parseCboeJson } from './cboe-json';
import type { ChainFormat, ChainParseOptions, ChainParseResult } from './common';
import { parseGenericCsv } from './generic-csv';
import { parseGenericJson } from './generic-json';
import { looksLikeSchwabJson, parseSchwabJson } from './schwab-json';
import { looksLikeYfinanceCsv, parseYfinanceCsv } from './yfinance-csv';

export type { ChainFormat, ChainParseError, ChainParseOptions, ChainParseResult, OverrideNames } from './common';
export { CLI_OVERRIDE_NAMES, parseOccSymbol, QUERY_OVERRIDE_NAMES, underlyingOfRoot } from './common';
export { parseCboeCsv, parseCboeDateLine } from './cboe-csv';
export { parseCboeJson } from './cboe-json';
export { parseGenericCsv } from './generic-csv';
export { parseGenericJson } from './generic-json';
export { parseSchwabJson } from './schwab-json';
export { parseYfinanceCsv } from './yfinance-csv';

/** The format of a chain file from its first characters: JSON by its opening brace, CBOE CSV by its header. */
export function detectChainFormat(text: string): Exclude<ChainFormat, 'auto'> {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    try {
      const document: unknown = JSON.parse(start);
      return looksLikeCboeJson(document) ? 'cboe-json' : looksLikeSchwabJson(document) ? 'schwab-json' : 'generic-json';
    } catch {
      // Invalid JSON: let the JSON parser report where it breaks.
      const head = start.slice(0, 2000);
      if (/"data"\s*:/.test(head)) return 'cboe-json';
      return /"(?:call|put)ExpDateMap"\s*:/.test(head) ? 'schwab-json' : 'generic-json';
    }
  }
  if (looksLikeCboeCsv(start)) return 'cboe-csv';
  return looksLikeYfinanceCsv(start) ? 'yfinance-csv' : 'generic-csv';
}

export function parseChainFile(text: string, options: ChainParseOptions = {}): ChainParseResult {
  if (text.replace(/^\uFEFF/, '').trim() === '') return { ok: false, errors: [{ line: null, message: 'empty file' }] };
  const format = options.format === undefined || options.format === 'auto' ? detectChainFormat(text) : options.format;
  const body = text.replace(/^\uFEFF/, '');
  switch (format) {
    case 'cboe-csv':
      return parseCboeCsv(body, options);
    case 'cboe-json':
      return parseCboeJson(body, options);
    case 'schwab-json':
      return parseSchwabJson(body, options);
    case 'yfinance-csv':
      return parseYfinanceCsv(body, options);
    case 'generic-json':
      return parseGenericJson(body, options);
    case 'generic-csv':
      return parseGenericCsv(body, options);
  }
}
