/**
 * A strike × expiration heat map on one canvas: a whole SPX chain is 54 × 313 = 16,902 cells, which as DOM nodes
 * would freeze the page; drawn, they take a few milliseconds. Green for positive values, red for negative, the
 * strength √(|v| / largest) (scales.ts). The pointer or the arrow keys pick a cell; its figure, the API's, shows in a
 * tooltip and is read out.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { fmtPrice } from '../../format';
import { useTheme } from '../../hooks';
import { chartPalette, CHART_FONT_FAMILY, CHART_FONT_PX, textWidth, useElementWidth } from './base';
import { heatStrength, labelledCells, rowMaxima, type HeatScaleMode } from './scales';

export interface HeatMapProps {
  /** Row names (expirations), top to bottom. */
  rows: readonly string[];
  /** A note after a row's name in the tooltip (its days to expiry). */
  rowNote?: (row: number) => string;
  /** Column values (strikes), left to right. */
  columns: readonly number[];
  /** values[row][column]. */
  values: ReadonlyArray<readonly number[]>;
  /** A vertical line at this column value (spot), between columns where it falls between them. */
  marker?: { at: number; label: string };
  mode: HeatScaleMode;
  /** What a value is: `net GEX`. */
  valueName: string;
  formatValue: (value: number) => string;
  label: string;
}

const TOP = 20;
const BOTTOM = 24;
const GAP = 8;

function cssTriplet(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

/** The geometry shared by drawing and picking. */
function layout(width: number, rows: readonly string[], columns: number) {
  const labelW = Math.ceil(Math.max(0, ...rows.map((r) => textWidth(r)))) + GAP;
  const plotW = Math.max(width - labelW - 4, 20);
  const colW = plotW / Math.max(columns, 1);
  const rowH = Math.max(6, Math.min(18, Math.floor(440 / Math.max(rows.length, 1))));
  return { labelW, plotW, colW, rowH, height: TOP + rowH * rows.length + BOTTOM };
}

/** Where a value lands: the centre of its column, or between two columns' centres (null outside the columns). */
export function columnX(columns: readonly number[], at: number, labelW: number, colW: number): number | null {
  const first = columns[0];
  const last = columns[columns.length - 1];
  if (first === undefined || last === undefined || at < first || at > last) return null;
  let i = 0;
  while (i + 1 < columns.length && (columns[i + 1] ?? Number.POSITIVE_INFINITY) <= at) i += 1;
  const lo = columns[i] ?? first;
  const hi = columns[i + 1];
  const fraction = hi === undefined || hi === lo ? 0 : (at - lo) / (hi - lo);
  return labelW + (i + 0.5 + fraction) * colW;
}

export function HeatMap({ rows, rowNote, columns, values, marker, mode, valueName, formatValue, label }: HeatMapProps) {
  const theme = useTheme();
  const [wrapRef, width] = useElementWidth<HTMLDivElement>();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [cell, setCell] = useState<{ row: number; col: number } | null>(null);
  const geo = layout(width, rows, columns.length);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(geo.height * ratio);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${geo.height}px`;
    const context = canvas.getContext('2d');
    if (!context) return;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, geo.height);
    const palette = chartPalette(theme);
    const pos = cssTriplet('--heat-pos', '11, 138, 76');
    const neg = cssTriplet('--heat-neg', '209, 52, 42');
    const maxima = rowMaxima(values, mode);
    const { labelW, colW, rowH } = geo;
    // Cells overlap by a hair so that fractional widths leave no seams.
    const w = Math.max(colW, 0.5) + 0.35;
    values.forEach((row, r) => {
      const largest = maxima[r] ?? 0;
      row.forEach((v, c) => {
        const strength = heatStrength(v, largest);
        if (strength === 0) return;
        context.fillStyle = `rgba(${v > 0 ? pos : neg}, ${strength.toFixed(3)})`;
        context.fillRect(labelW + c * colW, TOP + r * rowH, w, rowH - (rowH >= 9 ? 1 : 0));
      });
    });
    context.font = `${CHART_FONT_PX}px ${CHART_FONT_FAMILY}`;
    context.fillStyle = palette.muted;
    context.textBaseline = 'middle';
    context.textAlign = 'right';
    const every = Math.max(1, Math.ceil(13 / rowH));
    rows.forEach((name, r) => {
      if (r % every === 0) context.fillText(name, labelW - GAP / 2 - 2, TOP + r * rowH + rowH / 2);
    });
    // Strike labels: round strikes, never closer than 60 px, kept inside the canvas at both ends.
    context.textBaseline = 'alphabetic';
    const axisY = TOP + rows.length * rowH + 16;
    for (const c of labelledCells(columns, colW, 60)) {
      const text = fmtPrice(columns[c] ?? 0);
      const half = textWidth(text) / 2;
      const centre = Math.min(Math.max(labelW + (c + 0.5) * colW, labelW + half), width - half - 1);
      context.textAlign = 'center';
      context.fillText(text, centre, axisY);
    }
    if (marker) {
      const x = columnX(columns, marker.at, labelW, colW);
      if (x !== null) {
        context.strokeStyle = palette.text;
        context.setLineDash([3, 3]);
        context.lineWidth = 1;
        context.beginPath();
        context.moveTo(Math.round(x) + 0.5, TOP - 4);
        context.lineTo(Math.round(x) + 0.5, TOP + rows.length * rowH);
        context.stroke();
        context.setLineDash([]);
        context.fillStyle = palette.text;
        context.textBaseline = 'alphabetic';
        const half = textWidth(marker.label) / 2;
        context.textAlign = 'center';
        context.fillText(marker.label, Math.min(Math.max(x, labelW + half), width - half - 1), TOP - 7);
      }
    }
  }, [values, rows, columns, mode, width, theme, geo.height, geo.labelW, geo.colW, geo.rowH, marker]);

  const describe = (at: { row: number; col: number }) => {
    const v = values[at.row]?.[at.col];
    const note = rowNote ? ` (${rowNote(at.row)})` : '';
    return v === undefined ? null : { head: `${rows[at.row] ?? ''}${note}`, strike: fmtPrice(columns[at.col] ?? 0), value: formatValue(v) };
  };
  const onPointer = (event: PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const col = Math.floor((event.clientX - box.left - geo.labelW) / geo.colW);
    const row = Math.floor((event.clientY - box.top - TOP) / geo.rowH);
    setCell(row >= 0 && row < rows.length && col >= 0 && col < columns.length ? { row, col } : null);
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], PageUp: [-10, 0], PageDown: [10, 0], Home: [0, -columns.length], End: [0, columns.length] };
    if (event.key === 'Escape') setCell(null);
    const move = moves[event.key];
    if (!move || rows.length === 0 || columns.length === 0) return;
    event.preventDefault();
    setCell((at) => {
      // The first key lands on the first row at the marker's column (spot), where a trader looks first.
      const start = at ?? { row: 0, col: Math.max(0, columns.findIndex((c) => c >= (marker?.at ?? columns[0] ?? 0))) };
      return at === null ? start : { row: Math.max(0, Math.min(rows.length - 1, start.row + move[0])), col: Math.max(0, Math.min(columns.length - 1, start.col + move[1])) };
    });
  };

  const picked = cell ? describe(cell) : null;
  const cellLeft = cell ? geo.labelW + cell.col * geo.colW : 0;
  const cellTop = cell ? TOP + cell.row * geo.rowH : 0;
  return (
    <div
      className="chart-wrap heat-map"
      ref={wrapRef}
      tabIndex={0}
      onKeyDown={onKey}
      onBlur={() => setCell(null)}
      role="group"
      aria-label={`${label}. Arrow keys move between cells.`}
      data-rows={rows.length}
      data-columns={columns.length}
      data-cells={rows.length * columns.length}
    >
      <canvas ref={canvasRef} role="img" aria-label={label} onPointerMove={onPointer} onPointerLeave={() => setCell(null)} />
      {cell && picked && (
        <>
          <div className="heat-cursor" style={{ left: cellLeft - 1, top: cellTop - 1, width: Math.max(geo.colW, 2) + 2, height: geo.rowH + 2 }} />
          <div
            className="chart-tooltip"
            role="tooltip"
            data-testid="heat-tooltip"
            style={{ left: Math.min(Math.max(cellLeft + 12, 0), Math.max(width - 230, 0)), top: cellTop + geo.rowH + 6 > geo.height - 60 ? Math.max(cellTop - 62, 0) : cellTop + geo.rowH + 6 }}
          >
            <div>
              <strong>{picked.head}</strong>
            </div>
            <div>
              Strike <strong>{picked.strike}</strong>
            </div>
            <div>
              {valueName} <strong>{picked.value}</strong>
            </div>
          </div>
        </>
      )}
      <div className="visually-hidden" aria-live="polite">
        {picked ? `${picked.head}, strike ${picked.strike}: ${valueName} ${picked.value}` : ''}
      </div>
    </div>
  );
}
