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

export function parseJsonDocument(text: string): { ok: true; root: unknown } | { ok: false; errors: ChainParseError[] } {
  if (text.trim() === '') return { ok: false, errors: [{ line: null, message: 'empty file' }] };
  try {
    return { ok: true, root: JSON.parse(text) };
  } catch (error) {
    return { ok: false, errors: [{ line: lineOfJsonError(text, error), message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}
