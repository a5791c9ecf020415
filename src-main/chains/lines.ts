/**
 * Line-oriented CSV reading for chain files. Chain files have no multi-line cells, so splitting into lines
 * first keeps line numbers exact and the common case (no quotes) fast: a 10k-row CBOE file is mostly
 * `String.split(',')`.
 */

export interface TextLine {
  /** 1-based line number. */
  line: number;
  text: string;
}

export function splitLines(text: string): TextLine[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parts = input.split(/\r\n|\n|\r/);
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((part, index) => ({ line: index + 1, text: part }));
}

/** Splits one CSV line into cells: RFC 4180 quotes (`"a, b"`, doubled `""`). */
export function splitCsvLine(text: string, delimiter = ','): string[] {
  if (!text.includes('"')) return text.split(delimiter);
  const cells: string[] = [];
  let cell = '';
  let inQuotes = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else {
          inQuotes = false;
        }
      } else {
        cell += char;
      }
    } else if (char === '"' && cell.trim() === '') {
      inQuotes = true;
      cell = '';
    } else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell);
  return cells;
}
