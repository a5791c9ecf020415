/**
 * What both stored forms of a chain (snapshot-payload.ts's JSON versions 1–2, snapshot-columns.ts's columns version 3) share:
 * the error a damaged payload throws, and the dictionaries they spell roots and expirations with. Below both files,
 * so that neither imports the other (docs/architecture.md §Layout: no import loops).
 */

/** A stored payload that is not a packed chain of a known version (a damaged row, or a newer version's). */
export class PackedSnapshotError extends Error {
  constructor(detail: string) {
    super(`stored snapshot payload is not readable: ${detail}`);
    this.name = 'PackedSnapshotError';
  }
}

/** A dictionary filled in first-seen order: `intern(value)` is value's index in `values`, added when new. */
export interface Interner {
  readonly values: string[];
  intern(value: string): number;
}

export function interner(): Interner {
  const values: string[] = [];
  const index = new Map<string, number>();
  return {
    values,
    intern(value) {
      let at = index.get(value);
      if (at === undefined) {
        at = values.push(value) - 1;
        index.set(value, at);
      }
      return at;
    },
  };
}
