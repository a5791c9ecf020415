/**
 * Files people send to the journal's import that are no broker's transaction history, named for what they are
 * (issue 28, item 5): "this is X; Strikebook reads Y; export it as Z" instead of "the header matches no export".
 * Option-chain and market-data files (ORATS, Polygon, a CBOE or yfinance chain), an IBKR Flex Query in XML, a
 * thinkorswim Trade Activity export, and a broker's positions file. Looked for only when no importer recognises the
 * file (importers/index.ts); the file's head alone is read.
 */
import { nameSet, type FileHead } from './table';

export interface KnownFile {
  /** `an ORATS option-chain file`, ... */
  what: string;
  /** What Strikebook reads instead, and how to get it. */
  advice: string;
}

const CHAIN_ADVICE =
  'the journal imports a broker’s transaction history; option chains are loaded on the Exposure page (POST /v1/chains): CBOE quotedata, CBOE or Schwab chain JSON, yfinance option_chain CSV, or Strikebook’s generic chain CSV (expiration, strike, right, openInterest, iv) — map its columns to that';

const POSITIONS_ADVICE =
  'the journal imports transaction histories; a positions file is compared with the journal on the Positions page (“Check against my broker”, POST /v1/journal/reconcile). For /imports, download the account’s transaction history (activity) as CSV';

/** The names of a header among the head's first records that passes `test`, or null. */
function headerWith(head: FileHead, test: (names: Set<string>) => boolean, records = 10): Set<string> | null {
  for (const record of head.records.slice(0, records)) {
    const names = nameSet(record.cells);
    if (test(names)) return names;
  }
  return null;
}

const has = (names: Set<string>, ...wanted: string[]): boolean => wanted.every((name) => names.has(name));
const hasAny = (names: Set<string>, ...wanted: string[]): boolean => wanted.some((name) => names.has(name));

/** A holdings table: a quantity and what it is worth, and no date or action (what a history has on every row). */
function isPositionsHeader(names: Set<string>): boolean {
  const quantity = hasAny(names, 'quantity', 'qty', 'qty #', 'qty (quantity)', 'position', 'shares');
  const value = hasAny(names, 'market value', 'mkt val (market value)', 'mkt val', 'current value', 'value $', 'marketvalue', 'mark value', 'net liq', 'netliq', 'last price', 'last price $', 'mark', 'price paid $', 'cost basis total', 'average cost basis', 'unrealized p&l', 'unrealizedpnl');
  // An option's expiration date is a holding's column too (tastytrade's `Exp Date`).
  const history = [...names].some((name) => !name.startsWith('exp') && /(?:^|\s)(?:date|time|datetime|action|activity|trans code|transaction|exec time)(?:$|\s)/.test(name));
  return quantity && value && !history;
}

/** The generic positions file of POST /v1/journal/reconcile: `symbol,quantity[,cost]` and nothing else. */
function isGenericPositions(names: Set<string>): boolean {
  return has(names, 'symbol', 'quantity') && [...names].every((name) => ['symbol', 'quantity', 'cost', 'account', 'accountid'].includes(name));
}

export function knownOtherFile(head: FileHead): KnownFile | null {
  const text = head.text.replace(/^\uFEFF/, '').trimStart();
  if (/^<\?xml/i.test(text) || /^<FlexQueryResponse/i.test(text)) {
    if (/<FlexQueryResponse|<FlexStatements?\b/i.test(text.slice(0, 4096))) {
      return {
        what: 'an IBKR Flex Query in XML',
        advice: 'Strikebook reads Flex Queries as CSV: in Client Portal → Performance & Reports → Flex Queries, edit the query, set its Format to CSV, run it and drop that file',
      };
    }
    return null;
  }
  if (text.startsWith('{') || text.startsWith('[')) {
    const start = text.slice(0, 4096);
    if (/"expirDate"/.test(start) && /"tradeDate"|"stkPx"|"stockPrice"/.test(start)) return { what: 'an ORATS option-chain file (JSON)', advice: CHAIN_ADVICE };
    if (/"results"\s*:/.test(start) && /"request_id"|"details"\s*:\s*\{|"underlying_asset"/.test(start)) {
      return { what: 'a Polygon.io answer (market data, not your trades)', advice: CHAIN_ADVICE };
    }
    return null;
  }
  if (/^Today['’]s Trade Activity for\b/im.test(text.slice(0, 2048)) || (/^Filled Orders\s*,*$/m.test(text.slice(0, 8192)) && /^Working Orders\s*,*$/m.test(text.slice(0, 8192)))) {
    return {
      what: 'a thinkorswim Trade Activity export (the day’s orders and fills, without their cash and fees)',
      advice: 'Strikebook reads the thinkorswim Account Statement: in thinkorswim open Monitor → Account Statement, choose the dates and use Export to File (CSV)',
    };
  }
  if (headerWith(head, (names) => has(names, 'expirdate', 'strike') && hasAny(names, 'stkpx', 'stockprice', 'smvvol', 'smoothsmvvol', 'spotprice'))) {
    return { what: 'an ORATS option-chain file (strikes by expiration)', advice: CHAIN_ADVICE };
  }
  if (headerWith(head, (names) => (has(names, 'ticker') && hasAny(names, 'window_start', 'sip_timestamp', 'participant_timestamp')) || has(names, 'ticker', 'details.contract_type'))) {
    return { what: 'a Polygon.io flat file (option prices or trades of the market, not your trades)', advice: CHAIN_ADVICE };
  }
  if (headerWith(head, (names) => has(names, 'expiration date', 'calls', 'puts', 'open interest') || has(names, 'contractsymbol', 'impliedvolatility'))) {
    return { what: 'an option chain (a CBOE quotedata or yfinance download)', advice: CHAIN_ADVICE };
  }
  if (/^"?Positions for (?:account|All-Accounts)\b/im.test(text.slice(0, 1024))) return { what: 'a Charles Schwab positions file (what the account holds, not its transactions)', advice: POSITIONS_ADVICE };
  const positions = headerWith(head, (names) => isPositionsHeader(names) || isGenericPositions(names));
  if (positions !== null) {
    const broker = has(positions, 'account number', 'current value')
      ? 'a Fidelity positions file'
      : has(positions, 'qty #', 'price paid $')
        ? 'an E*TRADE portfolio download'
        : hasAny(positions, 'netliq', 'net liq') || has(positions, 'exp date', 'call/put')
          ? 'a tastytrade positions file'
          : hasAny(positions, 'financial instrument', 'unrealizedpnl')
            ? 'an Interactive Brokers positions file'
            : 'a positions file';
    return { what: `${broker} (what the account holds, not its transactions)`, advice: POSITIONS_ADVICE };
  }
  return null;
}
