import { describe, expect, it } from 'vitest';
import { appendBounded, boundedBody, boundedBytes } from '../../../src-shared/bytes';

const chunk = (...values: number[]) => Uint8Array.from(values);

describe('appendBounded', () => {
  it('fills a buffer sized from the declared length without growing it, and hands back that memory whole', () => {
    const buffer = boundedBytes(10, 5);
    const memory = buffer.bytes;
    expect(appendBounded(buffer, chunk(1, 2))).toBe(true);
    expect(appendBounded(buffer, chunk(3, 4, 5))).toBe(true);
    expect(buffer.bytes, 'no copy when the length was declared right').toBe(memory);
    const body = boundedBody(buffer);
    expect(body.buffer, 'the body owns its memory whole').toBe(memory.buffer);
    expect([...body]).toEqual([1, 2, 3, 4, 5]);
  });

  it('grows by doubling when no length was declared, never past the limit, keeping what came before', () => {
    const buffer = boundedBytes(150_000, null);
    expect(buffer.bytes.byteLength).toBe(64 * 1024);
    const big = new Uint8Array(70_000).fill(7);
    expect(appendBounded(buffer, big)).toBe(true);
    expect(buffer.bytes.byteLength, '64 KB doubled').toBe(128 * 1024);
    expect(appendBounded(buffer, big)).toBe(true);
    expect(buffer.bytes.byteLength, 'doubling stops at the limit').toBe(150_000);
    expect(buffer.length).toBe(140_000);
    const body = boundedBody(buffer);
    expect(body.byteLength).toBe(140_000);
    expect([body[0], body[139_999]], 'the first chunk kept through the growth, the second after it').toEqual([7, 7]);
  });

  it('refuses a chunk that would pass the limit and appends nothing of it; a chunk that reaches it exactly is taken', () => {
    const buffer = boundedBytes(4, null);
    expect(appendBounded(buffer, chunk(1, 2, 3))).toBe(true);
    expect(appendBounded(buffer, chunk(4, 5)), '5 bytes > 4').toBe(false);
    expect(buffer.length).toBe(3);
    expect(appendBounded(buffer, chunk(4))).toBe(true);
    expect([...boundedBody(buffer)]).toEqual([1, 2, 3, 4]);
  });

  it('a declared length over the limit sizes the buffer at the limit, and a body shorter than declared is a view of its start', () => {
    expect(boundedBytes(8, 1_000_000).bytes.byteLength).toBe(8);
    const buffer = boundedBytes(100, 10);
    appendBounded(buffer, chunk(9, 9));
    expect(boundedBody(buffer).byteLength).toBe(2);
  });
});
