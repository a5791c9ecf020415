import type { BrokerId } from '../../src-shared/api/schemas';
import type { BrokerImporter, ParseOptions, ParseResult } from './types';
import { tastytradeImporter } from './tastytrade/index';
import { schwabImporter } from './schwab/index';
import { thinkorswimImporter } from './thinkorswim/index';
import { ibkrActivityImporter, ibkrFlexImporter } from './ibkr/index';
import { robinhoodImporter } from './robinhood/index';
import { fidelityImporter } from './fidelity/index';
import { etradeImporter } from './etrade/index';
import { webullImporter } from './webull/index';
import { genericImporter } from './generic/index';

/** Detection order matters only where headers overlap: the most specific layouts first, generic last. */
export const IMPORTERS: readonly BrokerImporter[] = [
  tastytradeImporter,
  ibkrActivityImporter,
  ibkrFlexImporter,
  thinkorswimImporter,
  schwabImporter,
  fidelityImporter,
  robinhoodImporter,
  etradeImporter,
  webullImporter,
  genericImporter,
];

export function detectImporter(text: string): BrokerImporter | null {
  return IMPORTERS.find((importer) => importer.detect(text)) ?? null;
}

export type ParseImportOutcome =
  | { ok: true; result: ParseResult }
  | { ok: false; code: 'UNSUPPORTED_FORMAT' | 'IMPORT_FAILED'; detail: string; errors: Array<{ line: number; message: string }> };

/** Picks the importer (auto-detected from the header unless named) and parses; never throws. */
export function parseImport(text: string, broker: BrokerId | 'auto', options: ParseOptions): ParseImportOutcome {
  if (text.trim() === '') {
    return { ok: false, code: 'IMPORT_FAILED', detail: 'The file is empty.', errors: [{ line: 1, message: 'empty file' }] };
  }
  const candidates = broker === 'auto' ? [detectImporter(text)].filter((i): i is BrokerImporter => i !== null) : IMPORTERS.filter((i) => i.id === broker);
  const importer = broker === 'auto' ? candidates[0] : (candidates.find((i) => i.detect(text)) ?? candidates[0]);
  if (!importer) {
    return {
      ok: false,
      code: 'UNSUPPORTED_FORMAT',
      detail: `The file's header matches no known broker export (${IMPORTERS.map((i) => i.label).join(', ')}). Pick the broker explicitly, or use the generic CSV format (docs/importers.md).`,
      errors: [{ line: 1, message: 'unrecognised header' }],
    };
  }
  try {
    return { ok: true, result: importer.parse(text, options) };
  } catch (error) {
    // Importers return errors as data; a throw is a bug, but the user still gets a clear 422, not a 500.
    return { ok: false, code: 'IMPORT_FAILED', detail: `The ${importer.label} importer could not read the file: ${error instanceof Error ? error.message : String(error)}`, errors: [{ line: 1, message: 'unreadable file' }] };
  }
}
