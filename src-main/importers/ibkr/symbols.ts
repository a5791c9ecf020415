import { occSymbol, parseOccSymbol } from '../../../src-shared/journal/model';
import type { OptionFields } from '../common/importer-kit';

const MONTHS: Record<string, string> = {
  JAN: '01', FEB: '02', MAR: '03', APR: '04', MAY: '05', JUN: '06',
  JUL: '07', AUG: '08', SEP: '09', OCT: '10', NOV: '11', DEC: '12',
};

/**
 * IBKR's option description `KWEB 17DEC21 30 P` (root, DDMMMYY, strike, right) → OCC fields. Also accepts
 * the padded OCC form (`KWEB  220311P00034000`) that Flex queries print in the Symbol column.
 */
export function parseIbkrOptionSymbol(text: string): OptionFields | null {
  const trimmed = text.trim().toUpperCase();
  const match = /^([A-Z0-9.]+)\s+(\d{1,2})([A-Z]{3})(\d{2})\s+(\d+(?:\.\d+)?)\s+([CP])$/.exec(trimmed);
  if (match) {
    const [, root, day, monthName, yy, strikeText, rightText] = match;
    const month = monthName === undefined ? undefined : MONTHS[monthName];
    if (root === undefined || day === undefined || month === undefined || yy === undefined || strikeText === undefined) {
      return null;
    }
    const expiration = `20${yy}-${month}-${day.padStart(2, '0')}`;
    const strike = Number(strikeText);
    const right = rightText === 'C' ? 'C' : 'P';
    return { symbol: occSymbol(root, expiration, right, strike), underlying: root, expiration, strike, right };
  }
  const occ = parseOccSymbol(trimmed);
  if (occ) {
    return { symbol: occSymbol(occ.root, occ.expiration, occ.right, occ.strike), underlying: occ.root, ...occ };
  }
  return null;
}

/** `AAPL(US0378331005) Cash Dividend ...` → `AAPL`; '' when the description names no instrument. */
export function symbolFromCashDescription(description: string): string {
  const match = /^([A-Z0-9.]+(?: [A-Z0-9.]+)?)\s?\([A-Z]{2}[A-Z0-9]{9}\d\)/.exec(description.trim());
  return match?.[1] ?? '';
}
