import { describe, expect, it } from 'vitest';
import { optionFromText, saysOptionEffect } from '../../../../../src-main/importers/common/option-text';

/** The OCC symbol (root + YYMMDD + right + strike × 1000 in 8 digits) of each written-out contract, by hand. */
const LAYOUTS: Array<[string, string]> = [
  ['DEF 08/21/2026 100.00 C', 'DEF260821C00100000'],
  ['Sell to Open DEF 08/21/2026 100.00 C', 'DEF260821C00100000'],
  ['BTC DEF 08/21/2026 100.00 C', 'DEF260821C00100000'],
  ['SPY 09/23/2022 C 371', 'SPY220923C00371000'],
  ['Sold 2 SPY 09/23/2022 C 371', 'SPY220923C00371000'],
  ['SPY Sep 23 2022 371 Call', 'SPY220923C00371000'],
  ['SPY Sep 23, 2022 $371 Call', 'SPY220923C00371000'],
  ['SPY September 23 2022 371.5 Put', 'SPY220923P00371500'],
  ["TSLA Dec 15 '28 $400 Call", 'TSLA281215C00400000'],
  ['-SPY220923C371', 'SPY220923C00371000'],
  ['-AAPL240119P187.5', 'AAPL240119P00187500'],
  ['SPY220923C00371000', 'SPY220923C00371000'],
  ['SPY   220923C00371000', 'SPY220923C00371000'],
  ['TSLA 7/16/2021 Put $600.00', 'TSLA210716P00600000'],
  ['PUT  IWM    02/27/26   260.000', 'IWM260227P00260000'],
  ['CALL AAPL 01/19/24 180.000', 'AAPL240119C00180000'],
  ['KWEB 17DEC21 30 P', 'KWEB211217P00030000'],
  ['SPY 09/23/2022 00:00:00 EDT Call $371.00', 'SPY220923C00371000'],
  ['PFE 01/17/2025 26.00 P (Weeklys)', 'PFE250117P00026000'],
  ['C 01/17/2025 50.00 P', 'C250117P00050000'],
  ['sell to open def 08/21/2026 100 c', 'DEF260821C00100000'],
];

describe('options written out (common/option-text.ts)', () => {
  for (const [text, occ] of LAYOUTS) {
    it(`"${text}" → ${occ}`, () => {
      expect(optionFromText(text)?.symbol).toBe(occ);
    });
  }

  it('reads the fields, not just the symbol', () => {
    expect(optionFromText('Sell to Open DEF 08/21/2026 100.00 C')).toEqual({ symbol: 'DEF260821C00100000', underlying: 'DEF', expiration: '2026-08-21', strike: 100, right: 'C' });
  });

  it('names no option in tickers, company names, sentences and impossible dates', () => {
    for (const text of ['AAPL', 'PFIZER INC', 'Bought 100 AAPL @ 190.00', 'AAPL dividend 02/15/2024 0.24 per share', 'DEF 02/30/2026 100 C', 'DEF 08/21/2026 0 C', 'DEF 08/21/2026 100.00', '', '   ']) {
      expect(optionFromText(text), text).toBeNull();
    }
  });

  it('knows the words that say an option opens or closes', () => {
    for (const word of ['Sell to Open', 'Buy To Close', 'STO', 'btc', 'Bought to Open 1 DEF', 'SELL_TO_OPEN', 'Sell to Open DEF 08/21/2026 100.00 C']) expect(saysOptionEffect(word), word).toBe(true);
    for (const word of ['Buy', 'Sold', 'Sell Short', 'Buy to Cover', 'Open', 'Closed', 'Dividend', 'STOCK']) expect(saysOptionEffect(word), word).toBe(false);
  });
});
