/**
 * Chain snapshot parsers (docs/exposure.md): CBOE quotedata CSV, CBOE delayed-quotes JSON, and the generic CSV and
 * JSON formats of docs/exposure.md. `parseChainFile` detects the format unless one is given.
 */
import { looksLikeCboeCsv, parseCboeCsv } from './cboe-csv';
import { looksLikeCboeJson, parseCboeJson, parseCboeJsonRoot } from './cboe-json';
import type { ChainFormat, ChainParseOptions, ChainParseResult } from './common';
import { parseGenericCsv } from './generic-csv';
import { parseGenericJson, parseGenericJsonRoot } from './generic-json';
import { parseJsonDocument } from './json';

export type { ChainFormat, ChainParseError, ChainParseOptions, ChainParseResult } from './common';
export { parseOccSymbol, underlyingOfRoot } from './common';
export { parseCboeCsv, parseCboeDateLine } from './cboe-csv';
export { parseCboeJson } from './cboe-json';
export { parseGenericCsv } from './generic-csv';
export { parseGenericJson } from './generic-json';

/** The format of a chain file from its first characters: JSON by its opening brace, CBOE CSV by its header. */
export function detectChainFormat(text: string): Exclude<ChainFormat, 'auto'> {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    const document = parseJsonDocument(start);
    // Invalid (or oversized) JSON: the JSON parser reports where it breaks.
    if (!document.ok) return /"data"\s*:/.test(start.slice(0, 2000)) ? 'cboe-json' : 'generic-json';
    return looksLikeCboeJson(document.root) ? 'cboe-json' : 'generic-json';
  }
  return looksLikeCboeCsv(start) ? 'cboe-csv' : 'generic-csv';
}

/** A JSON chain file parsed once, its format decided on the parsed document (JSON.parse of 50 MB is not done twice). */
function parseJsonChain(body: string, options: ChainParseOptions): ChainParseResult {
  const document = parseJsonDocument(body);
  if (!document.ok) return document;
  return looksLikeCboeJson(document.root) ? parseCboeJsonRoot(document.root, options) : parseGenericJsonRoot(document.root, options);
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
  switch (format) {
    case 'cboe-csv':
      return parseCboeCsv(body, options);
    case 'cboe-json':
      return parseCboeJson(body, options);
    case 'generic-json':
      return parseGenericJson(body, options);
    case 'generic-csv':
      return parseGenericCsv(body, options);
  }
}
