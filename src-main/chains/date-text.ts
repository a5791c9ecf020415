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
  return localeDateText(normalised);
}

/**
 * Month names as the page's long dates write them in the locales chrono does not read — Italian, Russian and
 * Ukrainian (genitive: `10 ноября 2023 г.`), Swedish, Polish (genitive), Turkish — and, so that a line any of them
 * could write is read the same way, those it does.
 */
const MONTH_WORDS: ReadonlyArray<readonly string[]> = [
  ['january', 'janvier', 'januar', 'enero', 'janeiro', 'januari', 'gennaio', 'января', 'січня', 'stycznia', 'ocak', 'tammikuuta'],
  ['february', 'février', 'februar', 'febrero', 'fevereiro', 'februari', 'febbraio', 'февраля', 'лютого', 'lutego', 'şubat', 'helmikuuta'],
  ['march', 'mars', 'märz', 'marzo', 'março', 'maart', 'марта', 'березня', 'marca', 'mart', 'maaliskuuta'],
  ['april', 'avril', 'abril', 'aprile', 'апреля', 'квітня', 'kwietnia', 'nisan', 'huhtikuuta'],
  ['may', 'mai', 'mayo', 'maio', 'mei', 'maggio', 'maj', 'мая', 'травня', 'maja', 'mayıs', 'toukokuuta'],
  ['june', 'juin', 'juni', 'junio', 'junho', 'giugno', 'июня', 'червня', 'czerwca', 'haziran', 'kesäkuuta'],
  ['july', 'juillet', 'juli', 'julio', 'julho', 'luglio', 'июля', 'липня', 'lipca', 'temmuz', 'heinäkuuta'],
  ['august', 'août', 'agosto', 'augustus', 'augusti', 'августа', 'серпня', 'sierpnia', 'ağustos', 'elokuuta'],
  ['september', 'septembre', 'septiembre', 'setembro', 'settembre', 'сентября', 'вересня', 'września', 'eylül', 'syyskuuta'],
  ['october', 'octobre', 'oktober', 'octubre', 'outubro', 'ottobre', 'октября', 'жовтня', 'października', 'ekim', 'lokakuuta'],
  ['november', 'novembre', 'noviembre', 'novembro', 'ноября', 'листопада', 'listopada', 'kasım', 'marraskuuta'],
  ['december', 'décembre', 'dezember', 'diciembre', 'dezembro', 'dicembre', 'декабря', 'грудня', 'grudnia', 'aralık', 'joulukuuta'],
];
const MONTH_OF = new Map<string, number>(MONTH_WORDS.flatMap((words, index) => words.map((word) => [word, index + 1] as const)));

/** Zone names the page writes for New York's zone (fr-CA: heure normale / avancée de l'Est), as UTC offsets in minutes. */
const ZONE_NAMES: Readonly<Record<string, number>> = { est: -300, edt: -240, hne: -300, hae: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420 };

/** One match of `pattern` in `text`, its span blanked out (so that the digits left over can be checked). */
function take(text: string, pattern: RegExp): { match: RegExpExecArray; rest: string } | null {
  const match = pattern.exec(text);
  if (match === null) return null;
  return { match, rest: text.slice(0, match.index) + ' '.repeat(match[0].length) + text.slice(match.index + match[0].length) };
}

/**
 * The calendar date of a text whose time and zone are blanked out: `2023年11月10日`, `2023년 11월 10일`, a day, a month
 * word and a year (`10. November 2023`, `10 de noviembre de 2023`, `10 ноября 2023 г.`), or a month word, a day and a
 * year (`November 10, 2023`); null when it is none of them, or another number is left over. Read word by word.
 */
function calendarDate(text: string): { year: number; month: number; day: number } | null {
  const cjk = take(text, /(\d{4})\s?[年년]\s?(\d{1,2})\s?[月월]\s?(\d{1,2})\s?[日일]/);
  if (cjk !== null) return /\d/.test(cjk.rest) ? null : { year: Number(cjk.match[1]), month: Number(cjk.match[2]), day: Number(cjk.match[3]) };
  const words = text.split(/[\s,]+/).map((word) => word.replace(/\.$/, '')).filter((word) => word !== '' && word !== 'de');
  const numbered = words.filter((word) => /\d/.test(word));
  if (numbered.length !== 2) return null;
  for (let i = 0; i + 2 < words.length; i += 1) {
    const [a = '', b = '', c = ''] = [words[i], words[i + 1], words[i + 2]];
    if (!/^\d{4}$/.test(c)) continue;
    const dayFirst = /^\d{1,2}$/.test(a) ? MONTH_OF.get(b) : undefined;
    if (dayFirst !== undefined) return { year: Number(c), month: dayFirst, day: Number(a) };
    const monthFirst = /^\d{1,2}$/.test(b) ? MONTH_OF.get(a) : undefined;
    if (monthFirst !== undefined) return { year: Number(c), month: monthFirst, day: Number(b) };
  }
  return null;
}

/**
 * The long dates chrono does not read, by hand (the same rule: year, month, day, hour and minute all read, no digit
 * left over): `10 novembre 2023 alle ore 18:55 GMT-5` (it), `10 ноября 2023 г. в 18:55 GMT-5` (ru), `10 листопада
 * 2023 р. о 18:55` (uk), `10 november 2023 kl. 18:55 GMT−5` (sv), `10 listopada 2023 18:55` (pl), `10 Kasım 2023
 * 18:55` (tr), `2023年11月10日 下午6:55 [EST]` (zh-TW), `2023년 11월 10일 PM 6:55` (ko), `10 novembre 2023 à 18 h 55
 * HNE` (fr-CA). Each pattern is matched once, without nested repetition (docs/importers.md §Linear time).
 */
function localeDateText(input: string): string | null {
  let text = input.toLowerCase();
  let offsetMinutes: number | null = null;
  const offset = take(text, /(?:gmt|utc)\s?([+-])(\d{1,2})(?::?(\d{2}))?/);
  if (offset !== null) {
    const [, sign = '+', hours = '0', minutes = '0'] = offset.match;
    offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
    text = offset.rest;
  } else {
    const named = /(?:^|[^a-z])(est|edt|hne|hae|cst|cdt|mst|mdt|pst|pdt)(?![a-z])/.exec(text);
    if (named?.[1] !== undefined) offsetMinutes = ZONE_NAMES[named[1]] ?? null;
  }
  const clock = take(text, /(\d{1,2})(?::|\s?h\s?)(\d{2})(?::(\d{2}))?/);
  if (clock === null) return null;
  text = clock.rest;
  let hour = Number(clock.match[1]);
  const after = text.slice(clock.match.index + clock.match[0].length, clock.match.index + clock.match[0].length + 8);
  const before = text.slice(Math.max(0, clock.match.index - 4), clock.match.index);
  const pm = /^\s?p\.?\s?m\b/.test(after) || /(?:pm|下午|오후)\s?$/.test(before);
  const am = /^\s?a\.?\s?m\b/.test(after) || /(?:am|上午|오전)\s?$/.test(before);
  if ((pm || am) && (hour < 1 || hour > 12)) return null;
  if (pm && hour !== 12) hour += 12;
  if (am && hour === 12) hour = 0;
  const date = calendarDate(text);
  if (date === null) return null;
  const { year, month, day } = date;
  const zone = offsetMinutes === null ? NEW_YORK : FixedOffsetZone.instance(offsetMinutes);
  const parsed = DateTime.fromObject({ year, month, day, hour, minute: Number(clock.match[2]), second: Number(clock.match[3] ?? '0') }, { zone });
  return parsed.isValid ? parsed.toUTC().toISO({ suppressMilliseconds: true }) : null;
}
