/**
 * Line-oriented CSV reading for chain files. Chain files have no multi-line cells, so reading line by line keeps
 * line numbers exact and the common case (no quotes) fast: a 10k-row CBOE file is mostly `String.split(',')`.
 */

import { checkpoint } from '../checkpoint';

export interface TextLine {
  /** 1-based line number. */
  line: number;
  text: string;
}

/**
 * The lines of a text one at a time (CRLF, LF or CR; a BOM dropped; no empty last line after a final break). A
 * generator, not an array: a 50 MB file of short lines was 25 million line objects at once (1.7 GB).
 */
export function* textLines(text: string): Generator<TextLine, void, undefined> {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const length = input.length;
  let start = 0;
  let line = 1;
  while (start < length) {
    let end = start;
    while (end < length) {
      const code = input.charCodeAt(end);
      if (code === 10 || code === 13) break;
      end += 1;
    }
    checkpoint();
    yield { line, text: input.slice(start, end) };
    line += 1;
    start = end < length && input.charCodeAt(end) === 13 && input.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
  }
}

/** The first `count` lines of a text (the head of a file, for detection and headers). */
export function firstLines(text: string, count: number): TextLine[] {
  const out: TextLine[] = [];
  for (const l of textLines(text)) {
    if (out.length >= count) break;
    out.push(l);
  }
  return out;
}

/** True when the text holds a character other than a blank. */
export function hasContent(text: string): boolean {
  return /\S/.test(text);
}

/** Splits one CSV line into cells: RFC 4180 quotes (`"a, b"`, doubled `""`). */
export function splitCsvLine(text: string, delimiter = ','): string[] {
  if (!text.includes('"')) return text.split(delimiter);
  const cells: string[] = [];
  let cell = '';
  // Whether the cell so far is blank, kept as a flag: trimming the cell at each quote was quadratic in a run of them.
  let blank = true;
  let inQuotes = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (inQuotes) {
      if (char === '"') {
        if (text.charAt(i + 1) === '"') {
          cell += '"';
          i += 1;
        } else {
          inQuotes = false;
        }
      } else {
        cell += char;
      }
    } else if (char === '"' && blank) {
      inQuotes = true;
      cell = '';
      blank = false;
    } else if (char === delimiter) {
      cells.push(cell);
      cell = '';
      blank = true;
    } else {
      cell += char;
      if (blank && char.trim() !== '') blank = false;
    }
  }
  cells.push(cell);
  return cells;
}
