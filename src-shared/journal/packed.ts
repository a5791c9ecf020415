/**
 * Compact storage for the ledger's checkpoints (checkpoints.ts): tables that name values by index, and records of
 * integers and floats kept in two typed arrays once a build is over. Memory, not speed, decides the layout: a
 * 100,000-row journal keeps its checkpoints in a few MB (docs/journal.md §Checkpoints).
 */

/** A table of values named by their index; the index of keys goes once the build is over. */
export class Table<T> {
  readonly values: T[] = [];
  private indexes: Map<string, number> | null = new Map();

  index(key: string, value: () => T): number {
    if (this.indexes === null) throw new Error('checkpoints: the build is over (sealed)');
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = this.values.length;
      this.values.push(value());
      this.indexes.set(key, index);
    }
    return index;
  }

  seal(): void {
    this.indexes = null;
  }
}

/**
 * Records of small integers (32 bits: indexes, counts, signs) and numbers (64 bits: quantities, money). A record is
 * named by its offset among the integers, where its first integer is the offset of its numbers.
 */
export class Records {
  private ints: number[] | Int32Array = [];
  private floats: number[] | Float64Array = [];

  /** Appends a record, unless it equals the one at `previous` (then that is its offset). */
  add(ints: readonly number[], floats: readonly number[], previous?: number): number {
    const allInts = this.ints;
    const allFloats = this.floats;
    if (!Array.isArray(allInts) || !Array.isArray(allFloats)) throw new Error('checkpoints: the build is over (sealed)');
    if (previous !== undefined) {
      const floatsAt = allInts[previous] ?? -1;
      if (ints.every((value, i) => allInts[previous + 1 + i] === value) && floats.every((value, i) => Object.is(allFloats[floatsAt + i], value))) return previous;
    }
    const offset = allInts.length;
    allInts.push(allFloats.length, ...ints);
    for (const value of floats) allFloats.push(value);
    return offset;
  }

  /** Field `field` of the record's integers. */
  int(offset: number, field: number): number {
    return this.ints[offset + 1 + field] ?? 0;
  }

  /** Field `field` of the record's numbers. */
  float(offset: number, field: number): number {
    return this.floats[(this.ints[offset] ?? 0) + field] ?? 0;
  }

  /** Bytes kept (for the docs' figures). */
  get bytes(): number {
    return this.ints.length * 4 + this.floats.length * 8;
  }

  seal(): void {
    if (Array.isArray(this.ints)) this.ints = Int32Array.from(this.ints);
    if (Array.isArray(this.floats)) this.floats = Float64Array.from(this.floats);
  }
}
