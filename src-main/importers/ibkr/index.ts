import type { BrokerImporter } from '../types';
import { detectIbkrActivity, ibkrActivityImporter, parseIbkrActivity } from './activity';
import { detectIbkrFlex, ibkrFlexImporter, parseIbkrFlex } from './flex';

export { ibkrActivityImporter, ibkrFlexImporter };
export { IBKR_ACTIVITY_SOURCE, IBKR_HISTORY_SOURCE, parseIbkrActivity, parseIbkrDateTime } from './activity';
export { IBKR_FLEX_SOURCE, parseIbkrFlex } from './flex';
export { parseIbkrOptionSymbol } from './symbols';

/** One registry entry for both IBKR CSV formats: the Flex header is recognised first, else the statement. */
export const ibkrImporter: BrokerImporter = {
  id: 'ibkr',
  label: 'Interactive Brokers (Activity Statement, Transaction History or Flex Query CSV)',
  detect: (text) => detectIbkrFlex(text) || detectIbkrActivity(text),
  parse: (text, options) => (detectIbkrFlex(text) ? parseIbkrFlex(text, options) : parseIbkrActivity(text, options)),
};
