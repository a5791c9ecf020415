import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW: WindowState = { width: 1380, height: 880, maximized: false };
export const MIN_WIDTH = 960;
export const MIN_HEIGHT = 620;

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Reads the remembered window bounds. A missing or corrupt file, or bounds that no longer fall on any display
 * (a monitor was unplugged), give the default size, centred by Electron.
 */
export function loadWindowState(file: string, workAreas: readonly Rect[]): WindowState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return { ...DEFAULT_WINDOW };
  }
  if (typeof parsed !== 'object' || parsed === null) return { ...DEFAULT_WINDOW };
  const raw = parsed as Record<string, unknown>;
  if (!finite(raw.width) || !finite(raw.height)) return { ...DEFAULT_WINDOW };
  const state: WindowState = {
    width: Math.max(MIN_WIDTH, Math.round(raw.width)),
    height: Math.max(MIN_HEIGHT, Math.round(raw.height)),
    maximized: raw.maximized === true,
  };
  if (finite(raw.x) && finite(raw.y)) {
    const bounds = { x: Math.round(raw.x), y: Math.round(raw.y), width: state.width, height: state.height };
    // At least a 100×50 corner of the title bar area must be visible on some display.
    const visible = workAreas.some(
      (area) =>
        Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x) >= 100 &&
        Math.min(bounds.y + 50, area.y + area.height) - Math.max(bounds.y, area.y) >= 50,
    );
    if (visible) {
      state.x = bounds.x;
      state.y = bounds.y;
    }
  }
  return state;
}

/** Writes atomically (temp file + rename) so a crash never leaves half a JSON file. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.tmp`;
  writeFileSync(temp, `${JSON.stringify(state)}\n`);
  renameSync(temp, file);
}
