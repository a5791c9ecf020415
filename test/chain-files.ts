/**
 * Folders of chain files for the watch folder and backfill tests (issue 30): copies of a real CBOE quotedata download
 * of ../shared/fixtures/chains whose `Date:` line is moved to another New York time, written by the test (the rows
 * stay as CBOE wrote them). The quote time each copy must be stored at is computed here, independently of the parser.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { readChain } from './quotedata';

/** The 40-contract SPX download (one expiration, 2025-01-07, PM-settled SPXW), quoted 2025-01-06 20:57 New York. */
export const SMALL_SPX = 'SPX_quotedata_2025-01-06_20rows_dorel.csv';
export const SMALL_SPX_QUOTE = '2025-01-07T01:57:00.000Z';

/** The quotedata text with its `Date:` line saying `quoteTime` (an instant) in New York, as CBOE writes it. */
export function withQuoteTime(text: string, quoteTime: string): string {
  const local = DateTime.fromISO(quoteTime, { zone: 'America/New_York' });
  // "January 6, 2025 at 8:57 PM EST": the zone's abbreviation as CBOE prints it.
  const line = `"Date: ${local.toFormat("LLLL d, yyyy 'at' h:mm a")} ${local.isInDST ? 'EDT' : 'EST'}"`;
  return text.replace(/^"Date: [^"]*"/m, line);
}

export interface GeneratedFile {
  path: string;
  name: string;
  quoteTime: string;
}

/**
 * `count` copies of the small SPX download, the i-th quoted `stepMinutes × i` minutes before its own quote time,
 * written under `dir` in subfolders by New York day, named so that names do not sort as times do (the backfill must
 * order by quote time).
 */
export function writeShiftedChains(dir: string, count: number, stepMinutes = 30): GeneratedFile[] {
  const base = readChain(SMALL_SPX);
  const files: GeneratedFile[] = [];
  for (let i = 0; i < count; i += 1) {
    const quoteMs = Date.parse(SMALL_SPX_QUOTE) - i * stepMinutes * 60_000;
    const quoteTime = new Date(quoteMs).toISOString();
    const day = DateTime.fromMillis(quoteMs, { zone: 'America/New_York' }).toISODate() ?? 'day';
    const folder = join(dir, day);
    mkdirSync(folder, { recursive: true });
    // A name from a scrambled counter: alphabetical order is not time order.
    const name = `chain-${String((i * 7919) % 10007).padStart(5, '0')}.csv`;
    const path = join(folder, name);
    writeFileSync(path, withQuoteTime(base, quoteTime));
    files.push({ path, name: `${day}/${name}`, quoteTime });
  }
  return files;
}
