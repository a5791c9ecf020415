/**
 * Broker files with the oldest part of their history cut away, as a broker's one-year export is (docs/journal.md
 * §Unmatched closes): the records of the rows dated before a day are dropped wherever the file keeps them (oldest
 * first, newest first, in sections), and every other line (title, preamble, headers, totals, rows that are no
 * transactions) stays as it was.
 */
import { parseImport } from '../../../../../src-main/importers/index';
import { dayOfInstant } from '../../../../../src-shared/zone';

/** A CSV record: its physical lines (a quoted cell may hold line breaks) and the line it starts on (1-based). */
interface CsvRecord {
  line: number;
  text: string;
}

/** The file's records, quote-aware, each with the line break that ends it. */
function records(text: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  let start = 0;
  let line = 1;
  let startLine = 1;
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (char === '\n') {
      if (!quoted) {
        out.push({ line: startLine, text: text.slice(start, i + 1) });
        start = i + 1;
        startLine = line + 1;
      }
      line += 1;
    }
  }
  if (start < text.length) out.push({ line: startLine, text: text.slice(start) });
  return out;
}

/** The New York trade days of a file's transactions, by the line each comes from (as the importer reads it). */
export function daysByLine(text: string): Map<number, string[]> {
  const parsed = parseImport(text, 'auto', { asOf: new Date('2100-01-01T00:00:00Z') });
  if (!parsed.ok) throw new Error(`not importable: ${parsed.detail}`);
  const byLine = new Map<number, string[]>();
  for (const { line, transaction } of parsed.result.transactions) {
    const days = byLine.get(line) ?? [];
    days.push(dayOfInstant(transaction.tradeDate));
    byLine.set(line, days);
  }
  return byLine;
}

/**
 * The New York day of a record that makes no transaction of its own (the second row of a pair the importer reads as
 * one, a leg under a multi-leg order, a row it skips): its first cell that is a date, ISO (with an offset: its New
 * York day) or US (`03/02/2026 14:31:10 EST`); null when no cell is.
 */
function recordDay(record: CsvRecord): string | null {
  for (const raw of record.text.split(',')) {
    const cell = raw.trim().replace(/^"|"$/g, '');
    const iso = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2}))?/.exec(cell);
    if (iso?.[1] !== undefined) return iso[2] === undefined ? iso[1] : dayOfInstant(cell.slice(0, iso[0].length));
    const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(cell);
    if (us?.[1] !== undefined && us[2] !== undefined && us[3] !== undefined) return `${us[3]}-${us[1].padStart(2, '0')}-${us[2].padStart(2, '0')}`;
  }
  return null;
}

/**
 * The file without the records dated before `firstDay` (New York): a record that makes transactions goes when all of
 * them are older; another, after the first transaction's, when its own date is. The lines before the first
 * transaction (title, preamble, header) and the records without a date stay.
 */
export function cutBefore(text: string, firstDay: string): string {
  const byLine = daysByLine(text);
  const firstLine = Math.min(...byLine.keys());
  return records(text)
    .filter((record) => {
      const days = byLine.get(record.line);
      if (days !== undefined) return days.some((day) => day >= firstDay);
      if (record.line < firstLine) return true;
      const day = recordDay(record);
      return day === null || day >= firstDay;
    })
    .map((record) => record.text)
    .join('');
}
