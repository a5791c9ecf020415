/**
 * thinkorswim "Account Statement" CSV (Monitor → Account Statement → Export to file): a stack of
 * sections, each a title line, a header and rows, separated by blank lines:
 *
 *   Account Statement for 12345678SCHW (margin) since 1/2/24 through 3/28/24
 *   Cash Balance
 *   DATE,TIME,TYPE,REF #,DESCRIPTION,Misc Fees,Commissions & Fees,AMOUNT,BALANCE
 *   1/3/24,09:35:12,TRD,="5102334871",SOLD -1 PFE 100 19 JAN 24 28 PUT @.55,-0.01,-0.65,55.00,"10,054.34"
 *   ... TOTAL row
 *   Futures Statements / Forex Statements / Account Order History ...
 *   Account Trade History
 *   ,Exec Time,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,Price,Net Price,Order Type
 *   ,1/17/24 13:47:55,VERTICAL,SELL,-2,TO OPEN,PFE,16 FEB 24,28,PUT,.61,.38,LMT
 *   ,,,BUY,+2,TO OPEN,PFE,16 FEB 24,27,PUT,.23,CREDIT,        (a further leg of the same order)
 *   Equities / Options / Profits and Losses / Account Summary ...
 *
 * Cash Balance holds the cash (gross AMOUNT, fees in their own columns) and the non-trade events;
 * Account Trade History holds each leg with its open/close effect, which the cash rows lack.
 */
import type { CsvRecord } from '../common/csv';
import { headerIndex, isBlankRecord } from '../common/csv';

export const CASH_REQUIRED = ['DATE', 'TIME', 'TYPE', 'REF #', 'DESCRIPTION', 'Misc Fees', 'Commissions & Fees', 'AMOUNT'] as const;
export const TRADES_REQUIRED = ['Exec Time', 'Side', 'Qty', 'Pos Effect', 'Symbol', 'Exp', 'Strike', 'Type', 'Price'] as const;

export interface Section {
  title: string;
  titleLine: number;
  header: CsvRecord | null;
  columns: Map<string, number>;
  rows: CsvRecord[];
}

function singleCell(record: CsvRecord): string | null {
  const filled = record.cells.filter((cell) => cell.trim() !== '');
  return filled.length === 1 && record.cells[0]?.trim() !== '' ? (filled[0] ?? '').trim() : null;
}

/** Finds the section titled `title` and returns its header and rows up to the next blank line. */
export function findSection(records: CsvRecord[], title: string): Section | null {
  const at = records.findIndex((record) => singleCell(record)?.toLowerCase() === title.toLowerCase());
  const titleRecord = records[at];
  if (at < 0 || !titleRecord) return null;
  const header = records[at + 1];
  if (!header || isBlankRecord(header)) {
    return { title, titleLine: titleRecord.line, header: null, columns: new Map(), rows: [] };
  }
  const rows: CsvRecord[] = [];
  for (const record of records.slice(at + 2)) {
    if (isBlankRecord(record)) break;
    rows.push(record);
  }
  return { title, titleLine: titleRecord.line, header, columns: headerIndex(header.cells), rows };
}

/** `Account Statement for 12345678SCHW (margin) since ...` → `12345678SCHW`. */
export function accountOf(records: CsvRecord[]): string | null {
  for (const record of records.slice(0, 5)) {
    const match = /Account Statement for\s+(\S+)/i.exec(record.cells.join(','));
    if (match?.[1]) return match[1];
  }
  return null;
}

const ZONES: Record<string, string> = {
  EST: 'America/New_York', EDT: 'America/New_York',
  CST: 'America/Chicago', CDT: 'America/Chicago',
  MST: 'America/Denver', MDT: 'America/Denver',
  PST: 'America/Los_Angeles', PDT: 'America/Los_Angeles',
};

/** The statement's time zone from its balance lines (`... start of business day 02.01 CST`). */
export function zoneOf(descriptions: readonly string[]): string | null {
  for (const text of descriptions) {
    const match = /\b(EST|EDT|CST|CDT|MST|MDT|PST|PDT)\b/.exec(text.toUpperCase());
    if (match?.[1]) return ZONES[match[1]] ?? null;
  }
  return null;
}

/** `="5102334871"` (Excel-proof cell) → `5102334871`. */
export function cleanRef(text: string): string {
  return text.trim().replace(/^="?/, '').replace(/"$/, '');
}
