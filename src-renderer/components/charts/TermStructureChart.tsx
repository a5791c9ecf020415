/**
 * The IV term structure: at-the-money IV against days to expiry, drawn as SVG on a square-root time axis (the near
 * dates, where most expirations are, get room; the years stay on it). lightweight-charts spaces points evenly, which
 * would hide the gaps between expirations. Hover or the arrow keys pick a point; its figures are the API's.
 */
import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { fmtPct } from '../../format';
import { useElementWidth } from './base';
import { dteTicks, niceTicks, sqrtDte } from './scales';

export interface TermPoint {
  expiration: string;
  dte: number;
  atmIV: number | null;
}

const MARGIN = { left: 46, right: 14, top: 14, bottom: 30 };

export function TermStructureChart({ points, highlight, height = 300, label }: { points: readonly TermPoint[]; highlight?: ReadonlySet<string>; height?: number; label: string }) {
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const shown = points.filter((p): p is TermPoint & { atmIV: number } => p.atmIV !== null);
  const plotW = Math.max(width - MARGIN.left - MARGIN.right, 10);
  const plotH = height - MARGIN.top - MARGIN.bottom;
  const maxDte = Math.max(...shown.map((p) => p.dte), 1);
  const ivs = shown.map((p) => p.atmIV * 100);
  const low = Math.min(...ivs);
  const high = Math.max(...ivs);
  const padIv = Math.max((high - low) * 0.12, 0.5);
  const yTicks = niceTicks(Math.max(low - padIv, 0), high + padIv, 4);
  const yMin = Math.min(yTicks[0] ?? low, low - padIv * 0.5);
  const yMax = Math.max(yTicks[yTicks.length - 1] ?? high, high + padIv * 0.5);
  const x = (dte: number) => MARGIN.left + (sqrtDte(dte) / sqrtDte(maxDte)) * plotW;
  const y = (ivPct: number) => MARGIN.top + (1 - (ivPct - yMin) / (yMax - yMin || 1)) * plotH;
  const path = shown.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.dte).toFixed(1)},${y(p.atmIV * 100).toFixed(1)}`).join('');
  const current = active === null ? undefined : shown[Math.min(active, shown.length - 1)];

  const pick = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const at = event.clientX - box.left;
    let best = 0;
    shown.forEach((p, i) => {
      if (Math.abs(x(p.dte) - at) < Math.abs(x(shown[best]?.dte ?? 0) - at)) best = i;
    });
    setActive(shown.length > 0 ? best : null);
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (shown.length === 0) return;
    const move: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, Home: -shown.length, End: shown.length };
    const step = move[event.key];
    if (event.key === 'Escape') setActive(null);
    if (step === undefined) return;
    event.preventDefault();
    setActive((i) => Math.max(0, Math.min(shown.length - 1, (i ?? (step > 0 ? -1 : shown.length)) + step)));
  };

  return (
    <div className="chart-wrap term-chart" ref={ref} tabIndex={0} onKeyDown={onKey} onBlur={() => setActive(null)} role="group" aria-label={`${label}. Arrow keys step through the expirations.`} data-points={shown.length}>
      {width > 0 && shown.length > 0 && (
        <svg width={width} height={height} role="img" aria-label={label} onPointerMove={pick} onPointerLeave={() => setActive(null)}>
          {yTicks.map((tick) => (
            <g key={tick} className="axis">
              <line x1={MARGIN.left} x2={MARGIN.left + plotW} y1={y(tick)} y2={y(tick)} className="grid-line" />
              <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                {fmtPct(tick / 100, Number.isInteger(tick) ? 0 : 1)}
              </text>
            </g>
          ))}
          {dteTicks(maxDte, 40 / plotW).map((tick) => (
            <g key={tick.dte} className="axis">
              <line x1={x(tick.dte)} x2={x(tick.dte)} y1={MARGIN.top} y2={MARGIN.top + plotH} className="grid-line" />
              <text x={x(tick.dte)} y={height - MARGIN.bottom + 16} textAnchor={tick.dte === 0 ? 'start' : 'middle'}>
                {tick.label}
              </text>
            </g>
          ))}
          <line x1={MARGIN.left} x2={MARGIN.left + plotW} y1={MARGIN.top + plotH} y2={MARGIN.top + plotH} className="axis-line" />
          <path d={path} className="term-line" />
          {shown.map((p, i) => (
            <circle key={p.expiration} cx={x(p.dte)} cy={y(p.atmIV * 100)} r={current === p ? 5 : 3} className={`term-dot${highlight?.has(p.expiration) ? ' in-scope' : ''}${current === p ? ' active' : ''}`} data-index={i} />
          ))}
        </svg>
      )}
      {width > 0 && shown.length === 0 && <p className="muted pad">No expiration has an at-the-money IV (no strike lists both a call and a put with a usable IV).</p>}
      {current && (
        <div
          className="chart-tooltip"
          role="tooltip"
          data-testid="term-tooltip"
          style={{ left: Math.min(Math.max(x(current.dte) + 10, 0), Math.max(width - 190, 0)), top: Math.max(y(current.atmIV * 100) - 58, 0) }}
        >
          <div>
            <strong>{current.expiration}</strong> · {current.dte} d
          </div>
          <div>
            ATM IV <strong>{fmtPct(current.atmIV, 2)}</strong>
          </div>
        </div>
      )}
      <div className="visually-hidden" aria-live="polite">
        {current ? `${current.expiration}, ${current.dte} days: ATM IV ${fmtPct(current.atmIV, 2)}` : ''}
      </div>
    </div>
  );
}
