/** What the two JSON chain formats share: reading the document with a line-numbered error, and typed fields. */
import type { OptionContract } from '../../src-shared/exposure/model';
import { checkpoint } from '../checkpoint';
import type { ChainParseError, ErrorList, LocatedContract } from './common';

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

/**
 * Where a chain's contracts are in each JSON format: the elements of an array, or the members of an object, at a
 * path of keys. CBOE's `data.options` and the generic `contracts` are read an option at a time; Schwab's
 * `callExpDateMap`/`putExpDateMap` an expiration (its strikes) at a time.
 */
export const STREAMED: ReadonlyArray<{ path: readonly string[]; kind: 'array' | 'object' }> = [
  { path: ['data', 'options'], kind: 'array' },
  { path: ['contracts'], kind: 'array' },
  { path: ['callExpDateMap'], kind: 'object' },
  { path: ['putExpDateMap'], kind: 'object' },
];

/** A container at one of the STREAMED paths: the text spans [start, end) of its elements (or members' values, with their keys). */
export interface StreamedContainer {
  path: readonly string[];
  kind: 'array' | 'object';
  starts: number[];
  ends: number[];
  /** The members' keys, for an object. */
  keys: string[];
}

/** A JSON chain file read in pieces: the document with its streamed containers left empty, and where their pieces are. */
export interface JsonChainDocument {
  root: unknown;
  containers: StreamedContainer[];
  text: string;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

function lineAt(text: string, position: number): number {
  let line = 1;
  const end = Math.min(position, text.length);
  for (let i = 0; i < end; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

interface Frame {
  kind: 'array' | 'object';
  /** The key path of this container from the root (empty inside a streamed piece: not followed there). */
  path: string[];
  /** The key being read or last read (an object's member). */
  key: string | null;
  /** Reading a key (true) or a value (false), in an object. */
  expectKey: boolean;
  streamed: StreamedContainer | null;
  /** Inside a piece of a streamed container (its own frame or a deeper one). */
  inPiece: boolean;
  /** Where the current piece began (a streamed container's element or member value), or -1 between pieces. */
  pieceStart: number;
}

/** The piece under way of a streamed container, ended at `end` (exclusive, spaces before it left out). */
function endPiece(text: string, frame: Frame, end: number): number {
  const streamed = frame.streamed;
  if (streamed === null || frame.pieceStart === -1) return 0;
  let at = end;
  while (at > frame.pieceStart && isSpace(text.charCodeAt(at - 1))) at -= 1;
  streamed.starts.push(frame.pieceStart);
  streamed.ends.push(at);
  if (frame.kind === 'object') streamed.keys.push(frame.key ?? '');
  frame.pieceStart = -1;
  return 1;
}

/**
 * Reads a JSON chain file without building its contracts all at once (docs/architecture.md §Reliability and security):
 * one linear scan finds the STREAMED containers and the spans of their pieces, the rest of the document is parsed
 * with those containers empty, and the format's parser then parses each piece on its own (pieces()), so that only one
 * option's (or one expiration's) objects are alive at a time. A 45 MB CBOE file of 450,000 options was one
 * JSON.parse of them all before any was read. `maxPieces` bounds the spans kept: past it, the file has too many.
 */
export function readJsonChain(text: string, maxPieces: number): { ok: true; document: JsonChainDocument } | { ok: false; errors: ChainParseError[] } {
  if (!/\S/.test(text)) return { ok: false, errors: [{ line: null, message: 'empty file' }] };
  const shape = jsonShapeProblem(text);
  if (shape !== null) return { ok: false, errors: [{ line: null, message: `the JSON has ${shape}` }] };
  const containers: StreamedContainer[] = [];
  const stack: Frame[] = [];
  let pieces = 0;
  /** The document without the streamed containers' insides: the text around them, joined. */
  const kept: string[] = [];
  let keptFrom = 0;
  const invalid = (position: number, what: string) => ({ ok: false as const, errors: [{ line: lineAt(text, position), message: `not valid JSON: ${what} (line ${lineAt(text, position)})` }] });
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (isSpace(code)) continue;
    const top = stack[stack.length - 1];
    // A piece of a streamed container begins at its first character after `[` or `,` (an element), or after `key:` (a member's value).
    if (top !== undefined && top.streamed !== null && top.pieceStart === -1 && code !== 93 && code !== 125 && code !== 44 && !(top.kind === 'object' && top.expectKey)) top.pieceStart = i;
    if (code === 34 /* " */) {
      const start = i;
      let escaped = false;
      for (i += 1; i < length; i += 1) {
        const inner = text.charCodeAt(i);
        if (inner === 92 /* \ */) {
          escaped = true;
          i += 1;
        } else if (inner === 34) break;
      }
      if (i >= length) return invalid(start, 'a string that does not end');
      // Keys are followed outside the pieces only (the paths to the streamed containers, and a streamed object's members).
      if (top !== undefined && top.kind === 'object' && top.expectKey && (!top.inPiece || top.streamed !== null)) {
        const raw = text.slice(start, i + 1);
        try {
          top.key = escaped ? String(JSON.parse(raw)) : raw.slice(1, -1);
        } catch {
          return invalid(start, 'a key that is no JSON string');
        }
      }
    } else if (code === 58 /* : */) {
      if (top?.kind === 'object') top.expectKey = false;
    } else if (code === 123 /* { */ || code === 91 /* [ */) {
      const kind = code === 123 ? 'object' : 'array';
      const inPiece = top?.inPiece === true;
      const path = inPiece || top === undefined ? [] : top.kind === 'object' ? [...top.path, top.key ?? ''] : [...top.path, '#'];
      const target = inPiece ? undefined : STREAMED.find((s) => s.kind === kind && samePath(path, s.path));
      let streamed: StreamedContainer | null = null;
      if (target !== undefined) {
        streamed = { path, kind, starts: [], ends: [], keys: [] };
        containers.push(streamed);
        kept.push(text.slice(keptFrom, i + 1));
      }
      stack.push({ kind, path, key: null, expectKey: kind === 'object', streamed, inPiece: inPiece || streamed !== null, pieceStart: -1 });
    } else if (code === 125 /* } */ || code === 93 /* ] */) {
      const frame = stack.pop();
      if (frame === undefined) return invalid(i, `"${String.fromCharCode(code)}" closes nothing`);
      if ((frame.kind === 'object') !== (code === 125)) return invalid(i, `"${String.fromCharCode(code)}" where an ${frame.kind} is open`);
      if (frame.streamed !== null) {
        pieces += endPiece(text, frame, i);
        keptFrom = i;
      }
    } else if (code === 44 /* , */ && top !== undefined) {
      pieces += endPiece(text, top, i);
      if (top.kind === 'object') top.expectKey = true;
    }
    if (pieces > maxPieces) return { ok: false, errors: [{ line: null, message: `more than ${maxPieces.toLocaleString('en-US')} contracts: no chain of one underlying has that many (a whole SPX chain has about 21,000)` }] };
  }
  if (stack.length > 0) return invalid(length, 'the document ends inside an object or array');
  kept.push(text.slice(keptFrom));
  try {
    return { ok: true, document: { root: JSON.parse(kept.join('')), containers, text } };
  } catch (error) {
    return { ok: false, errors: [{ line: null, message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
}

/**
 * The pieces of the streamed containers at `path`, each parsed when it is reached; a piece that is not JSON throws
 * PieceError with its line in the file.
 */
export function* pieces(document: JsonChainDocument, path: readonly string[]): Generator<{ value: unknown; key: string }> {
  const { text } = document;
  for (const container of document.containers) {
    if (!samePath(container.path, path)) continue;
    for (let index = 0; index < container.starts.length; index += 1) {
      const start = container.starts[index] ?? 0;
      const piece = text.slice(start, container.ends[index] ?? start);
      let value: unknown;
      try {
        value = JSON.parse(piece);
      } catch (error) {
        const within = lineOfJsonError(piece, error);
        const line = lineAt(text, start) + (within === null ? 0 : within - 1);
        // The engine's position is the piece's, not the file's: the line says where.
        const reason = (error instanceof Error ? error.message : String(error)).replace(/ (?:at position \d+|\(line \d+ column \d+\))/, '');
        throw new PieceError(line, `not valid JSON: ${reason} (line ${line})`);
      }
      yield { value, key: container.keys[index] ?? '' };
    }
  }
}

/** A piece of a streamed container that is not JSON: the file's line, and the engine's message. */
export class PieceError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'PieceError';
  }
}

/**
 * Runs `visit` on each piece of the containers at `path` (its value, its index, its key), one parsed at a time; a
 * piece that is not JSON ends the reading with its line, as JSON.parse of the whole file would have.
 */
export function eachPiece(document: JsonChainDocument, path: readonly string[], visit: (value: unknown, index: number, key: string) => void): { ok: true } | { ok: false; errors: ChainParseError[] } {
  let index = 0;
  try {
    for (const { value, key } of pieces(document, path)) {
      visit(value, index, key);
      index += 1;
    }
  } catch (error) {
    if (error instanceof PieceError) return { ok: false, errors: [{ line: error.line, message: error.message }] };
    throw error;
  }
  return { ok: true };
}

/**
 * The contracts of a format that lists them in one array (CBOE's `data.options`, the generic `contracts`), read one at
 * a time: an element is its contract, or the problem that refuses it, told with `where` it stands (`data.options[3]`),
 * added to `errors`; an element that is no object is refused here. A fault of the document's JSON is the answer's.
 */
export function readContractArray(
  document: JsonChainDocument,
  path: readonly string[],
  errors: ErrorList,
  contractOf: (item: Record<string, unknown>, where: string) => OptionContract | { problem: string },
): { ok: true; located: LocatedContract[] } | { ok: false; errors: ChainParseError[] } {
  const located: LocatedContract[] = [];
  const name = path.join('.');
  const read = eachPiece(document, path, (item, index) => {
    checkpoint();
    const where = `${name}[${index}]`;
    const contract = isRecord(item) ? contractOf(item, where) : { problem: `${where}: not an object` };
    if ('problem' in contract) errors.add(null, contract.problem);
    else located.push({ contract, line: null });
  });
  return read.ok ? { ok: true, located } : read;
}
