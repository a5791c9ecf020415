import { useState } from 'react';
import type { EventsResponseT } from '../../api/client';
import { fmtDateTime } from '../../format';

/** Tickers listed before "Show all": a long watchlist does not push the events below the fold. */
const SHOWN_TICKERS = 5;

type Explanation = EventsResponseT['explanations'][number];

/**
 * The latest comparison of each ticker (issue 18: "every import says 0 new events and Events stays empty; nothing
 * explains this"): which expirations were compared with their confirmed state, why nothing fired, and the book's
 * result, as the server words it.
 */
export function Comparisons({ explanations }: { explanations: readonly Explanation[] }) {
  const [all, setAll] = useState(false);
  if (explanations.length === 0) return null;
  const shown = all ? explanations : explanations.slice(0, SHOWN_TICKERS);
  return (
    <section className="panel comparisons" aria-label="Latest comparison per ticker" data-testid="event-comparisons">
      <h2 className="panel-title">Latest comparison</h2>
      {shown.map(({ ticker, timestamp, report }) => {
        const [head, ...rest] = report.lines;
        const fired = report.fired.expiration + report.fired.book;
        return (
          <details key={ticker} className="comparison" data-testid="event-comparison">
            <summary>
              <strong>{ticker}</strong> <span className="muted small">{fmtDateTime(timestamp)}</span> ·{' '}
              <span>{fired === 0 ? 'no event' : `${fired} event${fired === 1 ? '' : 's'} (${report.fired.expiration} per expiration, ${report.fired.book} book)`}</span> — <span className="muted">{head}</span>
            </summary>
            <ul className="comparison-lines">
              {rest.map((line) => (
                <li key={line} className={line.startsWith('  ') ? 'indent' : ''}>
                  {line.trim()}
                </li>
              ))}
            </ul>
          </details>
        );
      })}
      {explanations.length > SHOWN_TICKERS && (
        <button type="button" className="btn btn-small" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${explanations.length}`}
        </button>
      )}
    </section>
  );
}
