import { dayMonYyToYmd } from '../common/dates';
import { occOption, optionFields, rightOf, type OptionFields } from '../common/options';

/**
 * IBKR's option description `KWEB 17DEC21 30 P` (root, DDMMMYY, strike, right) → OCC fields. Also accepts
 * the padded OCC form (`KWEB  220311P00034000`) that Flex queries print in the Symbol column.
 */
export function parseIbkrOptionSymbol(text: string): OptionFields | null {
  const match = /^([A-Z0-9.]+)\s+(\d{1,2})([A-Z]{3})(\d{2})\s+(\d+(?:\.\d+)?)\s+([CP])$/.exec(text.trim().toUpperCase());
  if (match) {
    const [, root = '', day = '', month = '', yy = '', strike = '', rightText = ''] = match;
    const expiration = dayMonYyToYmd(`${day} ${month} ${yy}`);
    const right = rightOf(rightText);
    return expiration !== null && right !== null ? optionFields(root, expiration, right, Number(strike)) : null;
  }
  return occOption(text);
}

/** `AAPL(US0378331005) Cash Dividend ...` → `AAPL`; '' when the description names no instrument. */
export function symbolFromCashDescription(description: string): string {
  const match = /^([A-Z0-9.]+(?: [A-Z0-9.]+)?)\s?\([A-Z]{2}[A-Z0-9]{9}\d\)/.exec(description.trim());
  return match?.[1] ?? '';
}
