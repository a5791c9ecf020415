/**
 * A body read into one buffer as it arrives (an upload, a fetched chain): each chunk copied once into memory sized from
 * the length the sender declared, grown by doubling when it declared none (or a compressed body inflates past it),
 * never past a limit. Neither the chunks and their copy at the end, nor more than the limit, are ever held at once.
 */
export interface BoundedBytes {
  /** The memory: its first `length` bytes are the body so far. */
  bytes: Uint8Array;
  length: number;
  /** The most bytes the body may take. */
  readonly limit: number;
}

/** A buffer for a body of `expected` bytes (a declared length), or of an unknown one (null: it starts at 64 KB). */
export function boundedBytes(limit: number, expected: number | null): BoundedBytes {
  const size = expected !== null && Number.isSafeInteger(expected) && expected > 0 ? Math.min(expected, limit) : Math.min(64 * 1024, limit);
  return { bytes: new Uint8Array(size), length: 0, limit };
}

/** Appends a chunk: false, and nothing appended, when it would take the body past its limit. */
export function appendBounded(buffer: BoundedBytes, chunk: Uint8Array): boolean {
  const length = buffer.length + chunk.byteLength;
  if (length > buffer.limit) return false;
  if (length > buffer.bytes.byteLength) {
    const grown = new Uint8Array(Math.min(buffer.limit, Math.max(buffer.bytes.byteLength * 2, length)));
    grown.set(buffer.bytes.subarray(0, buffer.length));
    buffer.bytes = grown;
  }
  buffer.bytes.set(chunk, buffer.length);
  buffer.length = length;
  return true;
}

/** The body: the memory itself when the body fills it (owning it whole: it can be moved to a worker uncopied), else a view of its start. */
export function boundedBody(buffer: BoundedBytes): Uint8Array {
  return buffer.length === buffer.bytes.byteLength ? buffer.bytes : buffer.bytes.subarray(0, buffer.length);
}
