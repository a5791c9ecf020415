/**
 * What a strike chart draws behind its bars: the expected-move band (a shaded span of strikes) and vertical lines at
 * levels between strikes (every crossing of the gamma flip). A lightweight-charts series primitive, so it is drawn
 * on the chart's own canvas and moves with it.
 */
import type { IChartApiBase, IPrimitivePaneRenderer, IPrimitivePaneView, ISeriesPrimitive, SeriesAttachedParameter } from 'lightweight-charts';

export interface StrikeBand {
  /** Strike units (prices): spot − expected move … spot + expected move. */
  from: number;
  to: number;
}

export interface StrikeLine {
  at: number;
  color: string;
}

/**
 * The x of a price on an ordinal strike axis: between two drawn strikes, linear between their bars; outside them,
 * null (the chart does not reach that far).
 */
export function strikeX(strikes: readonly number[], xOf: (strike: number) => number | null, price: number): number | null {
  const first = strikes[0];
  const last = strikes[strikes.length - 1];
  if (first === undefined || last === undefined || price < first || price > last) return null;
  let hi = strikes.findIndex((k) => k >= price);
  if (hi < 0) hi = strikes.length - 1;
  const kHi = strikes[hi] ?? last;
  const xHi = xOf(kHi);
  if (kHi === price || hi === 0) return xHi;
  const kLo = strikes[hi - 1] ?? first;
  const xLo = xOf(kLo);
  if (xLo === null || xHi === null) return null;
  return xLo + ((price - kLo) / (kHi - kLo)) * (xHi - xLo);
}

export class BandPrimitive implements ISeriesPrimitive<number> {
  private chart: IChartApiBase<number> | null = null;
  private band: { left: number; right: number } | null = null;
  private lines: Array<{ x: number; color: string }> = [];
  private readonly views: readonly IPrimitivePaneView[];

  constructor(
    private readonly strikes: readonly number[],
    private readonly range: StrikeBand | undefined,
    private readonly levels: readonly StrikeLine[],
    private readonly fill: string,
    private readonly edge: string,
  ) {
    const renderer: IPrimitivePaneRenderer = { draw: (target) => target.useMediaCoordinateSpace(({ context, mediaSize }) => this.draw(context, mediaSize.width, mediaSize.height)) };
    this.views = [{ zOrder: () => 'bottom', renderer: () => renderer }];
  }

  attached(param: SeriesAttachedParameter<number>): void {
    this.chart = param.chart;
  }

  detached(): void {
    this.chart = null;
  }

  updateAllViews(): void {
    const chart = this.chart;
    if (!chart) return;
    const xOf = (strike: number) => chart.timeScale().timeToCoordinate(strike);
    this.band = null;
    if (this.range) {
      // An edge beyond the drawn strikes is drawn at the plot's edge: the band goes on past it.
      const first = this.strikes[0];
      const last = this.strikes[this.strikes.length - 1];
      if (first !== undefined && last !== undefined && this.range.to >= first && this.range.from <= last) {
        const left = strikeX(this.strikes, xOf, Math.max(this.range.from, first));
        const right = strikeX(this.strikes, xOf, Math.min(this.range.to, last));
        if (left !== null && right !== null) this.band = { left: this.range.from < first ? 0 : left, right: this.range.to > last ? Number.POSITIVE_INFINITY : right };
      }
    }
    this.lines = [];
    for (const level of this.levels) {
      const x = strikeX(this.strikes, xOf, level.at);
      if (x !== null) this.lines.push({ x, color: level.color });
    }
  }

  paneViews(): readonly IPrimitivePaneView[] {
    return this.views;
  }

  private draw(context: CanvasRenderingContext2D, width: number, height: number): void {
    if (this.band) {
      const right = Math.min(this.band.right, width);
      context.fillStyle = this.fill;
      context.fillRect(this.band.left, 0, right - this.band.left, height);
      context.strokeStyle = this.edge;
      context.lineWidth = 1;
      context.setLineDash([2, 3]);
      for (const x of [this.band.left, this.band.right]) {
        if (!Number.isFinite(x) || x <= 0 || x >= width) continue;
        context.beginPath();
        context.moveTo(Math.round(x) + 0.5, 0);
        context.lineTo(Math.round(x) + 0.5, height);
        context.stroke();
      }
    }
    context.lineWidth = 1;
    context.setLineDash([5, 4]);
    for (const line of this.lines) {
      context.strokeStyle = line.color;
      context.beginPath();
      context.moveTo(Math.round(line.x) + 0.5, 0);
      context.lineTo(Math.round(line.x) + 0.5, height);
      context.stroke();
    }
    context.setLineDash([]);
  }
}
