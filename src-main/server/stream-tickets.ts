/**
 * Stream tickets (docs/architecture.md §Auth, "The event stream"): EventSource cannot send an Authorization header,
 * and a key written into a URL ends up in logs, proxies and the browser's history. The client trades its key (in the
 * header) for a ticket — random, 256 bits, good for one stream opened within TICKET_TTL_MS — and opens the stream
 * with `?ticket=`. The stream then lives as its key does (it ends when the key is revoked).
 */
import { createHash, randomBytes } from 'node:crypto';

/** How long a ticket may wait before it opens a stream. */
export const TICKET_TTL_MS = 60_000;
/** Tickets waiting at once: beyond this the oldest is dropped (a client asking in a loop cannot grow the map). */
export const TICKET_CAP = 1000;
/** 32 random bytes in base64url. */
export const TICKET_PATTERN = '^[A-Za-z0-9_-]{43}$';

interface Waiting {
  keyId: string;
  expiresMonoMs: number;
}

/** Tickets are kept by their SHA-256: the map never holds a usable ticket, and lookups compare digests. */
function digest(ticket: string): string {
  return createHash('sha256').update(ticket).digest('base64url');
}

export class StreamTickets {
  /** Insertion order is issue order: the first entries are the oldest. */
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly monotonicMs: () => number) {}

  /** A new ticket for the key `keyId`, and its lifetime in ms. */
  issue(keyId: string): { ticket: string; ttlMs: number } {
    this.prune();
    while (this.waiting.size >= TICKET_CAP) {
      const oldest = this.waiting.keys().next();
      if (oldest.done === true) break;
      this.waiting.delete(oldest.value);
    }
    const ticket = randomBytes(32).toString('base64url');
    this.waiting.set(digest(ticket), { keyId, expiresMonoMs: this.monotonicMs() + TICKET_TTL_MS });
    return { ticket, ttlMs: TICKET_TTL_MS };
  }

  /** The key id of a ticket that is waiting and not expired, which it stops being (one use); null otherwise. */
  redeem(ticket: string): string | null {
    if (ticket.length !== 43) return null;
    const id = digest(ticket);
    const entry = this.waiting.get(id);
    if (entry === undefined) return null;
    this.waiting.delete(id);
    return entry.expiresMonoMs > this.monotonicMs() ? entry.keyId : null;
  }

  /** The key id of a ticket that is waiting and not expired, which it stays (HEAD on the stream: it opens nothing); null otherwise. */
  peek(ticket: string): string | null {
    if (ticket.length !== 43) return null;
    const entry = this.waiting.get(digest(ticket));
    return entry !== undefined && entry.expiresMonoMs > this.monotonicMs() ? entry.keyId : null;
  }

  /** Tickets waiting now (tests). */
  get size(): number {
    return this.waiting.size;
  }

  private prune(): void {
    const now = this.monotonicMs();
    for (const [id, entry] of this.waiting) {
      if (entry.expiresMonoMs > now) break;
      this.waiting.delete(id);
    }
  }
}
