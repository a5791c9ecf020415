/**
 * The CBOE quotedata `Date:` line in each locale the page can be read in (issue 28, item 4; README: "its `Date:` line in
 * any of the page's locales"): the page writes the quote time with the browser's Intl long date and short zone name.
 * Each line below is what Intl writes for 10 November 2023, 18:55 New York time (23:55 UTC), in that locale, as
 * browsers of this and earlier versions write it (with "at"/"à"/"um" or a comma). One test per locale.
 */
import { describe, expect, it } from 'vitest';
import { parseDateText } from '../../../../src-main/chains/date-text';

const INSTANT = '2023-11-10T23:55:00Z';

describe('parseDateText: the Date: line of the CBOE page in every locale', () => {
  it.each([
    ['en-US', 'November 10, 2023 at 6:55 PM EST'],
    ['en-US, an older browser', 'November 10, 2023, 6:55 PM EST'],
    ['en-GB', '10 November 2023 at 18:55 GMT-5'],
    ['en-GB, day first with a comma', '10 November 2023, 18:55 GMT-5'],
    ['en-CA', 'November 10, 2023 at 6:55 p.m. EST'],
    ['en-AU', '10 November 2023 at 6:55 pm GMT-5'],
    ['fr-FR', '10 novembre 2023 à 18:55 UTC\u22125'],
    ['fr-CA', '10 novembre 2023 à 18 h 55 HNE'],
    ['de-DE', '10. November 2023 um 18:55 GMT-5'],
    ['de-DE, an older browser', '10. November 2023, 18:55 GMT-5'],
    ['es-ES', '10 de noviembre de 2023 a las 18:55 GMT-5'],
    ['es-MX', '10 de noviembre de 2023 a las 6:55 p.m. GMT-5'],
    ['it-IT', '10 novembre 2023 alle ore 18:55 GMT-5'],
    ['it-IT, an older browser', '10 novembre 2023, 18:55 GMT-5'],
    ['pt-BR', '10 de novembro de 2023 às 18:55 GMT-5'],
    ['pt-PT', '10 de novembro de 2023, 18:55 GMT-5'],
    ['nl-NL', '10 november 2023 om 18:55 EST'],
    ['sv-SE', '10 november 2023 kl. 18:55 GMT\u22125'],
    ['pl-PL', '10 listopada 2023 18:55 GMT-5'],
    ['tr-TR', '10 Kasım 2023 18:55 GMT-5'],
    ['ru-RU', '10 ноября 2023 г. в 18:55 GMT-5'],
    ['ru-RU, an older browser', '10 ноября 2023 г., 18:55 GMT-5'],
    ['uk-UA', '10 листопада 2023 р. о 18:55 GMT-5'],
    ['ja-JP', '2023年11月10日 18:55 GMT-5'],
    ['zh-CN', '2023年11月10日 GMT-5 18:55'],
    ['zh-TW', '2023年11月10日 下午6:55 [EST]'],
    ['ko-KR', '2023년 11월 10일 PM 6:55 GMT-5'],
  ])('%s: "%s"', (_locale, line) => {
    expect(parseDateText(line)).toBe(INSTANT);
  });

  it('reads a line without a zone as New York time (the Russian page, in summer: EDT)', () => {
    expect(parseDateText('9 июня 2023 г. в 13:40')).toBe('2023-06-09T17:40:00Z');
  });

  it.each([
    ['no year', '10 ноября в 18:55 GMT-5'],
    ['no time', '10 ноября 2023 г.'],
    ['a number left over', '10 ноября 2023 г. в 18:55 GMT-5 7'],
    ['a month no locale names', '10 brumaire 2023 18:55 GMT-5'],
    ['an hour past 12 with PM', '2023년 11월 10일 PM 18:55 GMT-5'],
  ])('refuses %s', (_what, line) => {
    expect(parseDateText(line)).toBeNull();
  });
});
