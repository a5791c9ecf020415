/**
 * The book of connections (server/connections.ts, issue 29) with stand-in sockets: which connection makes room at the
 * cap, when a new one is refused, the shared places of requests without a key, and event streams counted apart.
 * The same rules on real sockets: test/integration/main/server/listener*.test.ts.
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionBook } from '../../../../src-main/server/connections';

/** A socket as the book sees it: it can be destroyed, and then it emits close. */
function fakeSocket(): Socket & { destroyedByBook: boolean } {
  const emitter = new EventEmitter() as EventEmitter & { destroyedByBook: boolean; destroy: () => void };
  emitter.destroyedByBook = false;
  emitter.destroy = () => {
    emitter.destroyedByBook = true;
    emitter.emit('close');
  };
  return emitter as unknown as Socket & { destroyedByBook: boolean };
}

const limits = { max: 4, reserved: 1, streamsPerKey: 2, maxStreams: 3 };

describe('ConnectionBook', () => {
  it('at the cap closes the connection idle longest (a keep-alive that finished a request counts from then); refuses when all have a request in progress', () => {
    const book = new ConnectionBook(limits);
    const [a, b, c, d] = [fakeSocket(), fakeSocket(), fakeSocket(), fakeSocket()];
    for (const socket of [a, b, c, d]) expect(book.admit(socket)).toBe(true);
    // a answers a request: idle again, but more recently than b, c and d.
    book.requestStarted(a);
    book.requestEnded(a);
    book.requestStarted(c);
    const e = fakeSocket();
    expect(book.admit(e)).toBe(true);
    expect([a, b, c, d].map((s) => s.destroyedByBook)).toEqual([false, true, false, false]);
    const f = fakeSocket();
    expect(book.admit(f)).toBe(true);
    expect(d.destroyedByBook, 'then d (c has a request in progress)').toBe(true);
    for (const socket of [a, e, f]) book.requestStarted(socket);
    expect(book.admit(fakeSocket()), 'every place has a request in progress').toBe(false);
    book.requestEnded(c);
    expect(book.admit(fakeSocket()), 'c finished: it makes room').toBe(true);
    expect(c.destroyedByBook).toBe(true);
    expect(book.counts.connections).toBe(4);
  });

  it('requests without a key share all places but the reserved one; a socket counts once, and frees its place when its response ends', () => {
    const book = new ConnectionBook(limits);
    const [s0, s1, s2, s3] = [fakeSocket(), fakeSocket(), fakeSocket(), fakeSocket()] as const;
    for (const socket of [s0, s1, s2, s3]) {
      book.admit(socket);
      book.requestStarted(socket);
    }
    expect([s0, s1, s2].map((s) => book.claimShared(s))).toEqual([true, true, true]);
    expect(book.claimShared(s0), 'the same socket again (a pipelined request)').toBe(true);
    expect(book.claimShared(s3), 'the reserved place').toBe(false);
    book.requestEnded(s1);
    expect(book.claimShared(s3)).toBe(true);
    expect(book.counts.shared).toBe(3);
    expect(book.claimShared(undefined), 'an injected request (no socket of the listener)').toBe(true);
  });

  it('streams: per key and in all, outside the cap; a stream ended on a kept-alive connection counts against the cap again', () => {
    const book = new ConnectionBook(limits);
    const [s0, s1, s2, s3] = [fakeSocket(), fakeSocket(), fakeSocket(), fakeSocket()] as const;
    for (const socket of [s0, s1, s2, s3]) book.admit(socket);
    const first = book.openStream(s0, 'k1');
    const second = book.openStream(s1, 'k1');
    expect([first.ok, second.ok]).toEqual([true, true]);
    const third = book.openStream(s2, 'k1');
    expect(third.ok).toBe(false);
    if (!third.ok) expect(third.detail).toMatch(/at most 2 event streams/);
    expect(book.openStream(s2, 'k2').ok).toBe(true);
    expect(book.counts).toEqual({ connections: 1, shared: 0, streams: 3 });
    const fourth = book.openStream(null, 'k3');
    expect(fourth.ok, 'three streams in all').toBe(false);
    if (!fourth.ok) expect(fourth.detail).toMatch(/at most 3 event streams at once/);
    expect(book.admit(fakeSocket()) && book.admit(fakeSocket()) && book.admit(fakeSocket()), 'the streams left their places to requests').toBe(true);
    if (first.ok) {
      first.release();
      first.release();
    }
    expect(book.counts.streams).toBe(2);
    expect(book.counts.connections, 's0 is a connection of the cap again').toBe(5);
    expect(book.openStream(fakeSocket(), 'k1').ok, 'k1 has a place again').toBe(true);
  });
});
