/**
 * E*TRADE's ways of naming an option: in descriptions (`PUT AAPL 01/19/24 180.000`), in the newer layout's symbols
 * (`TSLA Dec 15 '28 $400 Call`) and as OCC symbols with dashes before the tail.
 */
import { mdyToYmd } from '../common/dates';
import { occOption, optionFields, rightOf, type OptionFields } from '../common/options';

const MONTHS: Record<string, number> = { JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 };

/** `PUT AAPL 01/19/24 180.000`, `CALL  SPY   03/15/24   480.50` (descriptions); `TSLA Dec 15 '28 $400 Call`, OCC (symbols). */
export function parseEtradeOption(text: string): OptionFields | null {
  const described = /^(CALL|PUT)\s+([A-Z0-9.]+)\s+(\d{1,2}\/\d{1,2}\/\d{2,4})\s+\$?(\d+(?:\.\d+)?)\b/i.exec(text.trim());
  if (described) {
    const [, rightText = '', root = '', date = '', strike = ''] = described;
    const expiration = mdyToYmd(date);
    const right = rightOf(rightText);
    return expiration !== null && right !== null ? optionFields(root, expiration, right, Number(strike)) : null;
  }
  const named = /^([A-Z0-9.]+)\s+([A-Z]{3})\s+(\d{1,2})\s+'(\d{2})\s+\$(\d+(?:\.\d+)?)\s+(Call|Put)$/i.exec(text.trim());
  if (named) {
    const [, root = '', monthText = '', day = '', yy = '', strike = '', rightText = ''] = named;
    const month = MONTHS[monthText.toUpperCase()];
    const right = rightOf(rightText);
    const expiration = month === undefined ? null : mdyToYmd(`${month}/${day}/20${yy}`);
    return expiration !== null && right !== null ? optionFields(root, expiration, right, Number(strike)) : null;
  }
  return occOption(withoutDashesBeforeTail(text));
}

/** The 15-character tail of an OCC symbol: YYMMDD, C or P, the strike × 1000 in 8 digits. */
const OCC_TAIL = /^\d{6}[CP]\d{8}$/;

/**
 * `SPY---220923C00371000` → `SPY220923C00371000`: the dashes before an OCC tail dropped. Cut by hand: as a search,
 * `-+(?=…$)` started again at every dash of a run and read the run to its end each time (docs/importers.md §Linear time).
 */
function withoutDashesBeforeTail(text: string): string {
  const tailAt = text.length - 15;
  if (tailAt < 1 || text.charAt(tailAt - 1) !== '-' || !OCC_TAIL.test(text.slice(tailAt))) return text;
  let start = tailAt - 1;
  while (start > 0 && text.charAt(start - 1) === '-') start -= 1;
  return text.slice(0, start) + text.slice(tailAt);
}
