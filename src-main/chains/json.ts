/** What the two JSON chain formats share: reading the document with a line-numbered error, and typed fields. */
import type { ChainParseError } from './common';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number, or a non-empty string holding one (CBOE sends some numbers as strings). */
export function finiteNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** The 1-based line of a JSON.parse error when the engine reports a position or a line; else null. */
export function lineOfJsonError(text: string, error: unknown): number | null {
  const message = error instanceof Error ? error.message : '';
  const lineMatch = /line (\d+)/.exec(message);
  if (lineMatch !== null) return Number(lineMatch[1]);
  const positionMatch = /position (\d+)/.exec(message);
  if (positionMatch === null) return null;
  const position = Math.min(Number(positionMatch[1]), text.length);
  let line = 1;
  for (let i = 0; i < position; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

/**
 * Bounds of a JSON chain file's shape, checked before it is parsed (docs/importers.md §Bounded): JSON.parse builds
 * every element at once, and 48 MB of `{},` made 16 million objects (1.4 GB). A whole SPX chain from CBOE is about
 * 21,000 options of some 23 fields: 21,000 objects and half a million values, ten times under these bounds.
 */
export const MAX_JSON_CONTAINERS = 500_000;
export const MAX_JSON_VALUES = 5_000_000;

/**
 * Counts the objects and arrays of a JSON text and its values (commas and openings: an upper bound), without parsing
 * it and without allocating: a problem sentence when either is over its bound, else null. Strings are skipped
 * (escapes included), so a comma or brace inside one does not count.
 */
export function jsonShapeProblem(text: string): string | null {
  let containers = 0;
  let values = 0;
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 34 /* " */) {
      for (i += 1; i < length; i += 1) {
        const inner = text.charCodeAt(i);
        if (inner === 92 /* \ */) i += 1;
        else if (inner === 34) break;
      }
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      containers += 1;
      values += 1;
      if (containers > MAX_JSON_CONTAINERS) return `more than ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays: no chain file has that many (a whole SPX chain has about 21,000)`;
    } else if (code === 44 /* , */) {
      values += 1;
      if (values > MAX_JSON_VALUES) return `more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values: no chain file has that many (a whole SPX chain has about half a million)`;
    }
  }
  return null;
}

export function parseJsonDocument(text: string): { ok: true; root: unknown } | { ok: false; errors: ChainParseError[] } {
  if (!/\S/.test(text)) return { ok: false, errors: [{ line: null, message: 'empty file' }] };
  const shape = jsonShapeProblem(text);
  if (shape !== null) return { ok: false, errors: [{ line: null, message: `the JSON has ${shape}` }] };
  try {
    return { ok: true, root: JSON.parse(text) };
  } catch (error) {
    return { ok: false, errors: [{ line: lineOfJsonError(text, error), message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}
