/**
 * A refusal names what the file is (issue 28, item 5): files sent to the journal's import that are no broker's
 * transaction history — market data, an XML Flex Query, a thinkorswim Trade Activity export, positions — are refused
 * with "this is X, not a transaction history: Strikebook reads Y; export it as Z". One test per file kind, each
 * written in the kind's own header.
 */
import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../../../src-main/importers/index';

function refusal(text: string, broker: Parameters<typeof parseImport>[1] = 'auto'): { code: string; detail: string; line: string } {
  const outcome = parseImport(text, broker, {});
  if (outcome.ok) throw new Error('the file was accepted');
  return { code: outcome.code, detail: outcome.detail, line: outcome.errors[0]?.message ?? '' };
}

describe('knownOtherFile: what a file is that no importer reads', () => {
  it('an IBKR Flex Query in XML: set its Format to CSV', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<FlexQueryResponse queryName="Trades" type="AF">\n<FlexStatements count="1">\n<FlexStatement accountId="U1234567" fromDate="20240101" toDate="20240131">\n<Trades>\n<Trade symbol="AAPL" quantity="100" tradePrice="185.2" />\n</Trades>\n</FlexStatement>\n</FlexStatements>\n</FlexQueryResponse>\n';
    const answer = refusal(xml);
    expect(answer.code).toBe('UNSUPPORTED_FORMAT');
    expect(answer.detail).toBe('This is an IBKR Flex Query in XML, not a transaction history: Strikebook reads Flex Queries as CSV: in Client Portal → Performance & Reports → Flex Queries, edit the query, set its Format to CSV, run it and drop that file.');
    expect(answer.line).toBe('this is an IBKR Flex Query in XML');
  });

  it('an ORATS strikes file (its API and its SMV history)', () => {
    const api = 'ticker,tradeDate,expirDate,dte,strike,stockPrice,callVolume,callOpenInterest,callBidPrice,callValue,callAskPrice,putVolume,putOpenInterest,putBidPrice,putValue,putAskPrice,callMidIv,smvVol,putMidIv,delta,gamma,theta,vega\nSPY,2024-01-05,2024-01-19,14,470,467.92,1523,20311,3.1,3.15,3.2,880,15422,5.2,5.25,5.3,0.121,0.118,0.119,0.45,0.03,-0.12,0.35\n';
    expect(refusal(api).detail).toMatch(/^This is an ORATS option-chain file \(strikes by expiration\), not a transaction history: the journal imports a broker’s transaction history; option chains are loaded on the Exposure page \(POST \/v1\/chains\)/);
    const smv = 'ticker,cOpra,pOpra,stkPx,expirDate,yte,strike,cVolu,cOi,pVolu,pOi,cBidPx,cValue,cAskPx,pBidPx,pValue,pAskPx,cMidIv,smoothSmvVol,pMidIv,trade_date\nSPY,SPY240119C00470000,SPY240119P00470000,467.92,1/19/2024,0.038,470,1523,20311,880,15422,3.1,3.15,3.2,5.2,5.25,5.3,0.121,0.118,0.119,1/5/2024\n';
    expect(refusal(smv).line).toBe('this is an ORATS option-chain file (strikes by expiration)');
    const json = '{"data":[{"ticker":"SPY","tradeDate":"2024-01-05","expirDate":"2024-01-19","strike":470,"stockPrice":467.92,"callOpenInterest":20311}]}';
    expect(refusal(json).line).toBe('this is an ORATS option-chain file (JSON)');
  });

  it('a Polygon.io flat file and a Polygon snapshot answer', () => {
    const flat = 'ticker,volume,open,close,high,low,window_start,transactions\nO:SPY240119C00470000,1523,3.05,3.15,3.3,2.9,1704430800000000000,412\n';
    expect(refusal(flat).line).toBe('this is a Polygon.io flat file (option prices or trades of the market, not your trades)');
    const snapshot = '{"request_id":"6a7e466379af0a71039d60cc78e72282","results":[{"details":{"contract_type":"call","expiration_date":"2024-01-19","strike_price":470,"ticker":"O:SPY240119C00470000"},"open_interest":20311,"implied_volatility":0.121}],"status":"OK"}';
    expect(refusal(snapshot).line).toBe('this is a Polygon.io answer (market data, not your trades)');
  });

  it('a thinkorswim Trade Activity export: use the Account Statement', () => {
    const activity = [
      "Today's Trade Activity for 123456789 (Margin) on 1/5/24 14:02:33",
      '',
      'Working Orders',
      'Notes,,Time Placed,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,PRICE,,TIF,Mark,Status',
      '',
      'Filled Orders',
      ',,Exec Time,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,Price,Net Price,Price Improvement,Order Type',
      ',,1/5/24 10:02:11,SINGLE,SELL,-1,TO OPEN,SPY,19 JAN 24,460,PUT,2.15,2.15,.00,LMT',
      '',
      'Canceled Orders',
      'Notes,,Time Canceled,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,PRICE,,TIF,Status',
    ].join('\n');
    const answer = refusal(activity);
    expect(answer.detail).toBe('This is a thinkorswim Trade Activity export (the day’s orders and fills, without their cash and fees), not a transaction history: Strikebook reads the thinkorswim Account Statement: in thinkorswim open Monitor → Account Statement, choose the dates and use Export to File (CSV).');
  });

  it('a CBOE quotedata chain sent to the journal', () => {
    const chain = 'SPX,Last: 4697.24,Change: -8.61\nDate: January 7, 2024 at 10:52 AM EST,Bid: 4645.23,Ask: 4753.90\nExpiration Date,Calls,Last Sale,Net,Bid,Ask,Volume,IV,Delta,Gamma,Open Interest,Strike,Puts,Last Sale,Net,Bid,Ask,Volume,IV,Delta,Gamma,Open Interest\n';
    expect(refusal(chain).line).toBe('this is an option chain (a CBOE quotedata or yfinance download)');
  });

  it.each([
    ['a Charles Schwab positions file', '"Positions for account Individual ...123 as of 03:55 PM ET, 2024/01/05"\n\n"Symbol","Description","Qty (Quantity)","Price","Price Chng % (Price Change %)","Mkt Val (Market Value)","Cost Basis","Security Type"\n"AAPL","APPLE INC","100","185.20","0.5%","$18,520.00","$15,000.00","Equity"\n'],
    ['a Fidelity positions file', 'Account Number,Account Name,Symbol,Description,Quantity,Last Price,Last Price Change,Current Value,Cost Basis Total,Average Cost Basis,Type\nZ12345678,Individual,AAPL,APPLE INC,100,$185.20,+$0.92,$18520.00,$15000.00,$150.00,Cash\n'],
    ['a tastytrade positions file', 'Account,Symbol,Type,Quantity,Exp Date,DTE,Strike Price,Call/Put,Underlying Last Price,P/L Open,Cost,Mark,NetLiq\n5WT00001,SPY   240119P00460000,OPTION,-1,1/19/2024,14,460,PUT,467.92,110,-215,1.05,-105\n'],
    ['an E*TRADE portfolio download', 'Symbol,Last Price $,Change $,Change %,Qty #,Price Paid $,Day\'s Gain $,Total Gain $,Total Gain %,Value $\nAAPL,185.20,0.92,0.50,100,150.00,92.00,3520.00,23.47,18520.00\n'],
    ['a positions file', 'symbol,quantity,cost\nAAPL,100,15000\nSPY240119P00460000,-1,-215\n'],
  ])('%s: compare it with the journal on the Positions page', (what, text) => {
    const answer = refusal(text);
    expect(answer.line).toBe(`this is ${what} (what the account holds, not its transactions)`);
    expect(answer.detail).toContain('POST /v1/journal/reconcile');
    expect(answer.detail).toContain('download the account’s transaction history (activity) as CSV');
  });

  it('names the file even when a broker is chosen whose export it is not', () => {
    const fidelity = 'Account Number,Account Name,Symbol,Description,Quantity,Last Price,Last Price Change,Current Value,Cost Basis Total,Average Cost Basis,Type\nZ12345678,Individual,AAPL,APPLE INC,100,$185.20,+$0.92,$18520.00,$15000.00,$150.00,Cash\n';
    expect(refusal(fidelity, 'fidelity').detail).toMatch(/^This is a Fidelity positions file \(what the account holds, not its transactions\), not a Fidelity transaction history:/);
  });

  it('leaves an XML file of no known kind, and an unknown header, as before', () => {
    expect(refusal('<?xml version="1.0"?>\n<root><a/></root>\n').line).toBe('this is an XML file, not a CSV export');
    expect(refusal('foo,bar,baz\n1,2,3\n').line).toBe('unrecognised header');
  });
});
