/**
 * Who holds the server's connections (docs/conventions.md §HTTP API, "Connections and timeouts"; issue 29): a local
 * process without a key filled the 256 places with silent sockets and locked every client out. The book keeps, for
 * each connection, whether a request is in progress on it, so that:
 * - at the cap, the connection idle longest (no request in progress: silent, still sending its headers, or a keep-alive
 *   between requests) is closed to make room, and a new one is refused only when every place has a request in progress;
 * - requests without a key to public routes (other than `GET /v1/health`) share all but `reserved` places: whatever
 *   such requests hold, health and requests with a key find room;
 * - event streams, which last as long as their client wants, are counted apart: at most `streamsPerKey` per key and
 *   `maxStreams` in all, none of them taking a place of the cap.
 */
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections served at once (streams apart). */
  max: number;
  /** Places that requests without a key to public routes cannot take (health's and the keys'). */
  reserved: number;
  streamsPerKey: number;
  maxStreams: number;
}

interface Held {
  /** Requests whose response has not ended yet (0: the connection is idle or still sending its headers). */
  inFlight: number;
  /** A request without a key to a public route is in progress: it takes one of the shared places. */
  anonymous: boolean;
  /** The key of the event stream this connection carries (counted apart from the cap), else null. */
  streamKey: string | null;
}

export type StreamSlot = { ok: true; release: () => void } | { ok: false; detail: string };

export class ConnectionBook {
  /** Every connection served, in the order they last became idle (the first idle one is the one to close). */
  private readonly held = new Map<Socket, Held>();
  /** Connections counted against `max`: all held ones but the streams. */
  private counted = 0;
  private anonymousBusy = 0;
  private streams = 0;
  private readonly streamsByKey = new Map<string, number>();

  constructor(readonly limits: ConnectionLimits) {}

  /**
   * A new connection: true when it is served, after closing the connection idle longest if the cap is reached; false
   * when every place has a request in progress (the caller refuses it).
   */
  admit(socket: Socket): boolean {
    if (this.counted >= this.limits.max && !this.closeIdlest()) return false;
    this.held.set(socket, { inFlight: 0, anonymous: false, streamKey: null });
    this.counted += 1;
    socket.once('close', () => this.forget(socket));
    return true;
  }

  /** A request's headers arrived on `socket` (the server's `request` event). */
  requestStarted(socket: Socket): void {
    const entry = this.held.get(socket);
    if (entry !== undefined) entry.inFlight += 1;
  }

  /** That request's response ended (or its connection went away). */
  requestEnded(socket: Socket): void {
    const entry = this.held.get(socket);
    if (entry === undefined || entry.inFlight === 0) return;
    entry.inFlight -= 1;
    if (entry.inFlight > 0) return;
    if (entry.anonymous) {
      entry.anonymous = false;
      this.anonymousBusy -= 1;
    }
    // Idle from now on: the last in line to be closed.
    this.held.delete(socket);
    this.held.set(socket, entry);
  }

  /**
   * A request without a key to a public route (not `GET /v1/health`) is about to be answered on `socket`: false when
   * such requests already hold all places but the reserved ones (the caller answers 503). A socket the book does not
   * know (an injected request) is let through.
   */
  claimShared(socket: Socket | null | undefined): boolean {
    const entry = socket === null || socket === undefined ? undefined : this.held.get(socket);
    if (entry === undefined || entry.anonymous) return true;
    if (this.anonymousBusy >= this.limits.max - this.limits.reserved) return false;
    entry.anonymous = true;
    this.anonymousBusy += 1;
    return true;
  }

  /**
   * An event stream of key `keyId` opens on `socket`: it leaves the cap's count for the streams' own. Refused past
   * `streamsPerKey` for the key or `maxStreams` in all. `release` (idempotent) is called when the stream ends.
   */
  openStream(socket: Socket | null | undefined, keyId: string): StreamSlot {
    const ofKey = this.streamsByKey.get(keyId) ?? 0;
    if (ofKey >= this.limits.streamsPerKey) {
      return { ok: false, detail: `A key holds at most ${this.limits.streamsPerKey} event streams at once and this one holds ${ofKey}: close one (one stream carries every ticker and event type) or use another key.` };
    }
    if (this.streams >= this.limits.maxStreams) {
      return { ok: false, detail: `The server carries at most ${this.limits.maxStreams} event streams at once; try again when one has closed.` };
    }
    this.streams += 1;
    this.streamsByKey.set(keyId, ofKey + 1);
    const entry = socket === null || socket === undefined ? undefined : this.held.get(socket);
    if (entry !== undefined && entry.streamKey === null) {
      entry.streamKey = keyId;
      this.counted -= 1;
    }
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.streams -= 1;
        const left = (this.streamsByKey.get(keyId) ?? 1) - 1;
        if (left > 0) this.streamsByKey.set(keyId, left);
        else this.streamsByKey.delete(keyId);
        // A connection that outlives its stream (a keep-alive) counts against the cap again.
        if (entry !== undefined && entry.streamKey !== null && this.held.get(socket as Socket) === entry) {
          entry.streamKey = null;
          this.counted += 1;
        }
      },
    };
  }

  /** Connections counted against the cap, and those of them held by requests without a key (tests, diagnostics). */
  get counts(): { connections: number; shared: number; streams: number } {
    return { connections: this.counted, shared: this.anonymousBusy, streams: this.streams };
  }

  /** Closes the connection idle longest; false when every connection has a request in progress or is a stream. */
  private closeIdlest(): boolean {
    for (const [socket, entry] of this.held) {
      if (entry.inFlight === 0 && entry.streamKey === null) {
        // Forgotten now: its place is the new connection's, whenever its close event comes.
        this.forget(socket);
        socket.destroy();
        return true;
      }
    }
    return false;
  }

  private forget(socket: Socket): void {
    const entry = this.held.get(socket);
    if (entry === undefined) return;
    this.held.delete(socket);
    if (entry.streamKey === null) this.counted -= 1;
    if (entry.anonymous) this.anonymousBusy -= 1;
  }
}
