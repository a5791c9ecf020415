/**
 * The terminal's progress bar for long CLI jobs (an export of a thousand snapshots takes minutes): redrawn in place
 * on a terminal, at most ten times a second; one line per tenth of the way when the output is a file or a pipe, so a
 * log stays readable.
 */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const BAR_WIDTH = 28;
const REDRAW_MS = 100;

export interface ProgressBar {
  update(done: number, total: number, detail?: string): void;
  /** Ends the bar's line (the summary then starts on a fresh one). */
  finish(): void;
}

export function progressBar(stream: ProgressStream, label: string, nowMs: () => number = () => performance.now()): ProgressBar {
  let lastDrawMs = -Infinity;
  let lastTenth = -1;
  let drawn = false;
  let lastLine = '';
  const line = (done: number, total: number, detail: string) => {
    const fraction = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(fraction * BAR_WIDTH);
    return `${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${done}/${total}${detail === '' ? '' : `  ${detail}`}`;
  };
  return {
    update(done, total, detail = '') {
      if (stream.isTTY === true) {
        const now = nowMs();
        if (done < total && now - lastDrawMs < REDRAW_MS) return;
        lastDrawMs = now;
        const text = line(done, total, detail).slice(0, Math.max(20, (stream.columns ?? 100) - 1));
        stream.write(`\r${text}${' '.repeat(Math.max(0, lastLine.length - text.length))}`);
        lastLine = text;
        drawn = true;
        return;
      }
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      stream.write(`${line(done, total, detail)}\n`);
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
