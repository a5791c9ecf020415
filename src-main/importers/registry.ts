/**
 * The importers in one place: what the Import page and the CLI list, what auto-detection tries, and what
 * `parseImport` dispatches to. A user-defined column mapping (`custom:<id>`) is one more BrokerImporter passed
 * in by the caller, tried before the built-ins so that its exact header wins.
 */
import type { BrokerImporter, ImporterId } from './types';
import { fileHead } from './common/table';
import { tastytradeImporter } from './tastytrade/index';
import { schwabImporter } from './schwab/index';
import { thinkorswimImporter } from './thinkorswim/index';
import { ibkrImporter } from './ibkr/index';
import { robinhoodImporter } from './robinhood/index';
import { fidelityImporter } from './fidelity/index';
import { etradeImporter } from './etrade/index';
import { webullImporter } from './webull/index';
import { genericImporter } from './generic/index';

/**
 * The order of the Import page's list and of BROKER_IDS; detection tries them in it too (the headers do not
 * overlap; generic, the strictest, comes last).
 */
export const IMPORTERS: readonly BrokerImporter[] = [
  tastytradeImporter,
  schwabImporter,
  thinkorswimImporter,
  ibkrImporter,
  fidelityImporter,
  robinhoodImporter,
  etradeImporter,
  webullImporter,
  genericImporter,
];

/** What the Import page's broker list and `strikebook import --broker` offer, in this order. */
export function importerList(extra: readonly BrokerImporter[] = []): Array<{ id: ImporterId; label: string; formats: string }> {
  return [...IMPORTERS, ...extra].map(({ id, label, formats }) => ({ id, label, formats }));
}

export function importerById(id: ImporterId, extra: readonly BrokerImporter[] = []): BrokerImporter | null {
  return [...extra, ...IMPORTERS].find((importer) => importer.id === id) ?? null;
}

/** The importer whose header the file has (user mappings first), or null. */
export function detectImporter(text: string, extra: readonly BrokerImporter[] = []): BrokerImporter | null {
  const head = fileHead(text);
  return [...extra, ...IMPORTERS].find((importer) => importer.detect(head)) ?? null;
}
