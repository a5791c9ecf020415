/**
 * thinkorswim "Account Statement" CSV (Monitor → Account Statement → Export to file): a stack of sections, each a
 * title line, a header and rows:
 *
 *   Account Statement for 12345678SCHW (margin) since 1/2/24 through 3/28/24
 *   Cash Balance
 *   DATE,TIME,TYPE,REF #,DESCRIPTION,Misc Fees,Commissions & Fees,AMOUNT,BALANCE
 *   1/3/24,09:35:12,TRD,="5102334871",SOLD -1 PFE 100 19 JAN 24 28 PUT @.55,-0.01,-0.65,55.00,"10,054.34"
 *   ,,,,TOTAL,($70.56),($283.50),$660.00,"$5,309.70"
 *   Futures Statements / Forex Statements / Account Order History ...
 *   Account Trade History
 *   ,Exec Time,Spread,Side,Qty,Pos Effect,Symbol,Exp,Strike,Type,Price,Net Price,Order Type
 *   ,1/17/24 13:47:55,VERTICAL,SELL,-2,TO OPEN,PFE,16 FEB 24,28,PUT,.61,.38,LMT
 *   ,,,BUY,+2,TO OPEN,PFE,16 FEB 24,27,PUT,.23,CREDIT,        (a further leg of the same order)
 *   Equities / Options / Futures Options / Profits and Losses / Account Summary ...
 *
 * Cash Balance holds the cash (gross AMOUNT, fees in their own columns) and the non-trade events; Account Trade
 * History holds each leg with its open/close effect, which the cash rows lack. Files re-saved by a spreadsheet
 * pad every line with commas and write 4-digit years and times without seconds.
 */
import { Columns } from '../common/cells';
import { isBlankRecord, type CsvRecord } from '../common/csv';
import { NEW_YORK } from '../../../src-shared/zone';

/** Older TD Ameritrade statements have no `REF #` or `Misc Fees` column: those are read when present. */
export const CASH_REQUIRED = ['DATE', 'TIME', 'TYPE', 'DESCRIPTION', 'Commissions & Fees', 'AMOUNT'] as const;
export const TRADES_REQUIRED = ['Exec Time', 'Side', 'Qty', 'Pos Effect', 'Symbol', 'Exp', 'Strike', 'Type', 'Price'] as const;

export interface Section {
  title: string;
  titleLine: number;
  header: CsvRecord | null;
  columns: Columns;
  /** Its rows, blank ones dropped. */
  rows: CsvRecord[];
}

/** A section title (or the statement's title, a disclaimer): one filled cell, in the first column. */
function titleOf(record: CsvRecord): string | null {
  const filled = record.cells.filter((cell) => cell.trim() !== '');
  const first = record.cells[0]?.trim() ?? '';
  return filled.length === 1 && first !== '' ? first : null;
}

/** Splits the statement into its sections: each runs from its title to the next title; blank rows are skipped. */
export function readSections(records: readonly CsvRecord[]): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  for (const record of records) {
    if (isBlankRecord(record)) continue;
    const title = titleOf(record);
    if (title !== null) {
      current = { title, titleLine: record.line, header: null, columns: new Columns([]), rows: [] };
      sections.push(current);
    } else if (current !== null && current.header === null) {
      current.header = record;
      current.columns = new Columns(record.cells);
    } else if (current !== null) {
      current.rows.push(record);
    }
  }
  return sections;
}

export function findSection(sections: readonly Section[], title: string): Section | null {
  return sections.find((section) => section.title.toLowerCase() === title.toLowerCase()) ?? null;
}

/** `Account Statement for 12345678SCHW (margin) since ...` → `12345678SCHW` (masked forms included: `*`). */
export function accountOf(records: readonly CsvRecord[]): string | null {
  for (const record of records.slice(0, 8)) {
    const match = /Account Statement for\s+(\S+)/i.exec(record.cells.join(','));
    if (match?.[1]) return match[1];
  }
  return null;
}

const ZONES: Record<string, string> = {
  EST: NEW_YORK, EDT: NEW_YORK,
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
