/**
 * The journal's daily P&L heat map. A week, a month or a short custom range is a Monday-first calendar with
 * the day's P&L in each cell; a longer range is one strip per calendar year (weeks across, weekdays down),
 * so a seven-year range stays one screen tall. Colour strength is relative to the range's biggest day.
 */
import { useMemo } from 'react';
import type { PerformanceResponseT } from '../../src-shared/api/schemas';
import { addDays, daysBetween, weekdayFromMonday } from '../../src-shared/calendar';
import { fmtCount, fmtInt, fmtMoney, fmtMoneyCompact } from '../format';

type Calendar = PerformanceResponseT['calendar'];
type Day = Calendar['days'][number];

/** Ranges up to this many calendar rows (a quarter, give or take) keep the calendar layout. */
export const CALENDAR_MAX_WEEKS = 16;
/** Week columns of a year strip: a year touches at most 54 Monday-first weeks. */
const STRIP_WEEKS = 54;
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface Heat {
  tone: 'pos' | 'neg' | 'zero';
  strength: number;
}

function heatOf(pl: number, maxAbs: number): Heat {
  const tone = pl > 0 ? 'pos' : pl < 0 ? 'neg' : 'zero';
  const strength = pl === 0 ? 0 : 0.15 + 0.85 * Math.min(1, Math.abs(pl) / maxAbs) ** 0.7;
  return { tone, strength };
}

function dayTitle(date: string, pl: number, trades: number, currency: string): string {
  return `${date}: ${fmtMoney(pl, currency, true)} · ${fmtCount(trades, 'trade')}`;
}

function MonthGrid({ calendar, byDate, maxAbs, currency, weekly }: { calendar: Calendar; byDate: Map<string, Day>; maxAbs: number; currency: string; weekly: boolean }) {
  const weeks = useMemo(() => {
    const start = addDays(calendar.from, -weekdayFromMonday(calendar.from));
    const count = Math.ceil((daysBetween(start, calendar.to) + 1) / 7);
    return Array.from({ length: count }, (_, week) => Array.from({ length: 7 }, (__, day) => addDays(start, week * 7 + day)));
  }, [calendar.from, calendar.to]);
  const compact = weeks.length > 6;
  return (
    <div className={`heatmap ${compact ? 'heatmap-compact' : ''} ${weekly ? 'heatmap-week' : ''}`} role="grid" aria-label="Daily P&L calendar" data-layout="calendar">
      <div className="heatmap-row heatmap-head" role="row">
        {WEEKDAYS.map((d) => (
          <div key={d} role="columnheader">
            {d}
          </div>
        ))}
      </div>
      {weeks.map((days) => (
        <div className="heatmap-row" role="row" key={days[0]}>
          {days.map((date) => {
            const inRange = date >= calendar.from && date <= calendar.to;
            const day = inRange ? byDate.get(date) : undefined;
            const pl = day?.pl ?? 0;
            const trades = day?.trades ?? 0;
            const heat = heatOf(pl, maxAbs);
            const dayOfMonth = Number(date.slice(8, 10));
            return (
              <div
                key={date}
                role="gridcell"
                data-date={date}
                className={`heat-cell heat-${heat.tone} ${inRange ? '' : 'out'} ${trades > 0 ? 'active' : ''}`}
                style={{ ['--heat' as string]: heat.strength.toFixed(3) }}
                title={dayTitle(date, pl, trades, currency)}
                aria-label={`${date} ${fmtMoney(pl, currency, true)}, ${fmtCount(trades, 'trade')}`}
              >
                <span className="heat-day">{dayOfMonth === 1 ? `${date.slice(5, 7)}/01` : dayOfMonth}</span>
                {day && <span className="heat-pl num">{fmtMoneyCompact(pl, currency)}</span>}
                {trades > 0 && !compact && <span className="heat-trades">{trades}t</span>}
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

interface Strip {
  year: number;
  cells: Array<{ date: string; week: number; weekday: number; day: Day | undefined }>;
  months: Array<{ label: string; week: number }>;
  activeDays: number;
  upDays: number;
  downDays: number;
}

/** One strip per calendar year the range touches, clipped to the range; weeks counted from the Monday on or before 1 January. */
function yearStrips(calendar: Calendar, byDate: Map<string, Day>): Strip[] {
  const strips: Strip[] = [];
  const firstYear = Number(calendar.from.slice(0, 4));
  const lastYear = Number(calendar.to.slice(0, 4));
  for (let year = firstYear; year <= lastYear; year += 1) {
    const yyyy = String(year).padStart(4, '0');
    const monthStart = (month: number) => `${yyyy}-${String(month + 1).padStart(2, '0')}-01`;
    const jan1 = monthStart(0);
    const dec31 = `${yyyy}-12-31`;
    const origin = addDays(jan1, -weekdayFromMonday(jan1));
    const first = calendar.from > jan1 ? calendar.from : jan1;
    const last = calendar.to < dec31 ? calendar.to : dec31;
    const cells: Strip['cells'] = [];
    let activeDays = 0;
    let upDays = 0;
    let downDays = 0;
    for (let date = first; date <= last; date = addDays(date, 1)) {
      const day = byDate.get(date);
      if (day) {
        activeDays += 1;
        if (day.pl > 0) upDays += 1;
        else if (day.pl < 0) downDays += 1;
      }
      cells.push({ date, week: Math.floor(daysBetween(origin, date) / 7), weekday: weekdayFromMonday(date), day });
    }
    const months: Strip['months'] = [];
    for (let month = 0; month < 12; month += 1) {
      const start = monthStart(month);
      const end = month === 11 ? dec31 : addDays(monthStart(month + 1), -1);
      if (end < first || start > last) continue;
      // A month cut short by the range start would print its label on top of the next month's.
      if (start < first && daysBetween(first, end) < 14) continue;
      months.push({ label: MONTHS[month] ?? '', week: Math.floor(daysBetween(origin, start < first ? first : start) / 7) });
    }
    strips.push({ year, cells, months, activeDays, upDays, downDays });
  }
  return strips;
}

function YearStrips({ calendar, byDate, maxAbs, currency }: { calendar: Calendar; byDate: Map<string, Day>; maxAbs: number; currency: string }) {
  const strips = useMemo(() => yearStrips(calendar, byDate), [calendar, byDate]);
  return (
    <div className="year-strips" data-layout="years" aria-label="Daily P&L by year">
      {strips.map((strip) => (
        <section className="year-strip" key={strip.year} data-year={strip.year} aria-label={`${strip.year}: ${fmtCount(strip.activeDays, 'active day')}, ${strip.upDays} up, ${strip.downDays} down`}>
          {/* No money total here: a sum of the days' rounded cents can miss the year's own total by a cent; the year view below has it. */}
          <header className="year-strip-head">
            <span className="year-strip-year">{strip.year}</span>
            <span className="small">{fmtCount(strip.activeDays, 'active day')}</span>
            <span className="small">
              <span className="pos">{fmtInt(strip.upDays)} up</span> · <span className="neg">{fmtInt(strip.downDays)} down</span>
            </span>
          </header>
          <div className="year-grid" style={{ ['--weeks' as string]: STRIP_WEEKS }}>
            {strip.months.map((m) => (
              <span key={m.label} className="year-grid-month" style={{ gridColumn: m.week + 2, gridRow: 1 }} aria-hidden="true">
                {m.label}
              </span>
            ))}
            {WEEKDAYS.map((d, i) =>
              i % 2 === 0 ? (
                <span key={d} className="year-grid-weekday" style={{ gridColumn: 1, gridRow: i + 2 }} aria-hidden="true">
                  {d}
                </span>
              ) : null,
            )}
            {strip.cells.map(({ date, week, weekday, day }) => {
              const pl = day?.pl ?? 0;
              const heat = heatOf(pl, maxAbs);
              return (
                <span
                  key={date}
                  data-date={date}
                  className={`year-cell heat-${heat.tone} ${day ? 'active' : ''}`}
                  style={{ gridColumn: week + 2, gridRow: weekday + 2, ['--heat' as string]: heat.strength.toFixed(3) }}
                  title={dayTitle(date, pl, day?.trades ?? 0, currency)}
                />
              );
            })}
          </div>
        </section>
      ))}
      {calendar.days.length > 0 && (
        <p className="muted small year-legend">
        One square per day. Colour: the day&apos;s P&amp;L against the range&apos;s biggest day ({fmtMoney(maxAbs, currency)}); outlined: trades without P&amp;L. Hover for the figures.
        </p>
      )}
    </div>
  );
}

/** True when the range is long enough for the per-year layout. */
export function usesYearStrips(calendar: Pick<Calendar, 'from' | 'to'>): boolean {
  const start = addDays(calendar.from, -weekdayFromMonday(calendar.from));
  return Math.ceil((daysBetween(start, calendar.to) + 1) / 7) > CALENDAR_MAX_WEEKS;
}

export function PnlCalendar({ calendar, currency, weekly }: { calendar: Calendar; currency: string; weekly: boolean }) {
  const byDate = useMemo(() => new Map(calendar.days.map((d) => [d.date, d])), [calendar.days]);
  const maxAbs = useMemo(() => Math.max(1, ...calendar.days.map((d) => Math.abs(d.pl))), [calendar.days]);
  if (usesYearStrips(calendar)) return <YearStrips calendar={calendar} byDate={byDate} maxAbs={maxAbs} currency={currency} />;
  return <MonthGrid calendar={calendar} byDate={byDate} maxAbs={maxAbs} currency={currency} weekly={weekly} />;
}
