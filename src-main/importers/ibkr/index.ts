import { fileHead } from '../common/table';
import type { BrokerImporter } from '../types';
import { detectIbkrActivity, ibkrActivityImporter, parseIbkrActivity } from './activity';
import { detectIbkrFlex, ibkrFlexImporter, parseIbkrFlex } from './flex';
import { BROKER_LABELS } from '../../../src-shared/api/constants';

export { ibkrActivityImporter, ibkrFlexImporter };
export { IBKR_ACTIVITY_SOURCE, IBKR_HISTORY_SOURCE, parseIbkrActivity, parseIbkrDateTime } from './activity';
export { IBKR_FLEX_SOURCE, parseIbkrFlex } from './flex';
export { parseIbkrOptionSymbol } from './symbols';

/** One registry entry for the IBKR CSV formats: the statement block is recognised first, else a Flex header. */
export const ibkrImporter: BrokerImporter = {
  id: 'ibkr',
  label: BROKER_LABELS.ibkr,
  formats: 'Activity Statement and Transaction History CSV; Flex Query CSV (Activity Flex trades and cash, Trade Confirmation Flex)',
  detect: (head) => detectIbkrActivity(head) || detectIbkrFlex(head),
  parse: (text, options) => (detectIbkrActivity(fileHead(text)) ? parseIbkrActivity(text, options) : parseIbkrFlex(text, options)),
};
