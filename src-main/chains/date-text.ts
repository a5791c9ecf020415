/**
 * Quote times written for people: the CBOE page prints its `Date:` line with the browser's locale
 * ("January 7, 2024 at 10:52 AM EST", "9 June 2023, 1:40 PM EDT", "10 novembre 2023 à 18:55 UTC−5").
 * chrono-node reads them; we only accept a reading that is certain of year, month, day, hour and minute and leaves
 * no digit unread, so a half-understood line is an error rather than a guess.
 */
import * as chrono from 'chrono-node';
import { DateTime, FixedOffsetZone } from 'luxon';
import { NEW_YORK } from '../../src-shared/zone';

/**
 * The locales tried, in order. US English first (the page's default, month-first); British English reads
 * numeric dates day-first; then the languages chrono knows whose long dates the page writes in full.
 */
const PARSERS: ReadonlyArray<{ name: string; parser: chrono.Chrono }> = [
  { name: 'en', parser: chrono.en.casual },
  { name: 'en-GB', parser: chrono.en.GB },
  { name: 'fr', parser: chrono.fr.casual },
  { name: 'de', parser: chrono.de.casual },
  { name: 'es', parser: chrono.es.casual },
  { name: 'pt', parser: chrono.pt.casual },
  { name: 'nl', parser: chrono.nl.casual },
  { name: 'ja', parser: chrono.ja.casual },
  { name: 'fi', parser: chrono.fi.casual },
];

/** Components a quote time cannot do without; a reading that had to assume any of them is refused. */
const REQUIRED: readonly chrono.Component[] = ['year', 'month', 'day', 'hour', 'minute'];

/** Only the components are used, never chrono's idea of "now"; a fixed reference keeps parsing deterministic. */
const REFERENCE = new Date(Date.UTC(2000, 0, 1));

/** Examples for error messages: what a readable quote line looks like. */
export const QUOTE_LINE_EXAMPLES = '"January 7, 2024 at 10:52 AM EST", "9 June 2023, 1:40 PM EDT" or "10 novembre 2023 à 18:55 UTC−5"';

/**
 * A written date and time → UTC ISO instant, or null when no locale reads all of year, month, day, hour and
 * minute (and every number of the text). A stated zone (EST, EDT, UTC−5, GMT-4) is honoured; without one the time is New York wall-clock time.
 */
export function parseDateText(text: string): string | null {
  // U+2212 (the typographic minus in "UTC−5") and no-break spaces are what Intl writes; chrono wants ASCII.
  const normalised = text.replace(/\u2212/g, '-').replace(/[\u00a0\u202f\u2009]/g, ' ').trim();
  if (normalised === '') return null;
  for (const { parser } of PARSERS) {
    for (const result of parser.parse(normalised, REFERENCE)) {
      const start = result.start;
      if (!REQUIRED.every((component) => start.isCertain(component))) continue;
      // A digit left outside the match is a part not understood ("18 h 55" read as 18:00): refuse the reading.
      const rest = normalised.slice(0, result.index) + normalised.slice(result.index + result.text.length);
      if (/\d/.test(rest)) continue;
      const parts = {
        year: start.get('year') ?? Number.NaN,
        month: start.get('month') ?? Number.NaN,
        day: start.get('day') ?? Number.NaN,
        hour: start.get('hour') ?? Number.NaN,
        minute: start.get('minute') ?? Number.NaN,
        second: start.isCertain('second') ? (start.get('second') ?? 0) : 0,
      };
      const offsetMinutes = start.isCertain('timezoneOffset') ? start.get('timezoneOffset') : null;
      const zone = offsetMinutes === null ? NEW_YORK : FixedOffsetZone.instance(offsetMinutes);
      const parsed = DateTime.fromObject(parts, { zone });
      if (parsed.isValid) return parsed.toUTC().toISO({ suppressMilliseconds: true });
    }
  }
  return null;
}
