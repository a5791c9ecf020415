import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';
import type { SnapshotChanges } from '../services/exposure/chain-cache';
import type { PlannedAnswer } from '../services/exposure/service';
import type { Access } from './route-kit';
import { CACHE_CONTROL, JSON_TYPE } from './route-kit';

/** An exposure answer as HTTP sends it: encoded once, with its ETag and the headers of a 200. */
export interface CachedAnswer {
  /** Symbol, snapshot and parameters: what the answer depends on. */
  key: string;
  /** The JSON text (decoded from `bytes` on demand: only the bytes are kept). */
  readonly body: string;
  bytes: Buffer;
  etag: string;
  headers: Record<string, string | number>;
}

/** A request URL the router dispatched to a cached-answer route, with that route's access. */
interface RememberedUrl {
  key: string;
  access: Access;
}

/**
 * Bounds (docs/decisions.md, "Bounded memory"): a client cycling through `expirations=` subsets (or any parameters)
 * evicts the least recently used answers instead of growing the heap. A whole-chain SPX answer is about 1 MB.
 */
const ANSWER_CACHE_ENTRIES = 256;
const ANSWER_CACHE_BYTES = 64 * 1024 * 1024;
/** Request URLs remembered for the fast path, bounded the same way (a URL is at most 8 KB, target.ts). */
const REMEMBERED_URLS = 2_000;
const REMEMBERED_URL_BYTES = 2 * 1024 * 1024;

/**
 * The exposure answers of the HTTP layer: computed answers serialised and kept per key for `cacheSeconds` (each
 * expires on the clock's monotonic time, purged then so that the memory goes back too), and the URLs that led to
 * them, for the fast path (fast-path.ts). An answer goes as soon as the snapshots it was computed on change: the
 * snapshots' changes (the exposure service's chain cache, chain-cache.ts) say so, for its own writes and for those of
 * other processes, and only for snapshots. It knows nothing else of the service.
 */
export class AnswerCache {
  private readonly answers: LRUCache<string, CachedAnswer>;
  private readonly urls = new LRUCache<string, RememberedUrl>({
    max: REMEMBERED_URLS,
    maxSize: REMEMBERED_URL_BYTES,
    sizeCalculation: (entry, url) => url.length + entry.key.length + 64,
  });
  private readonly unsubscribe: () => void;

  constructor(
    private readonly changes: SnapshotChanges,
    clock: Clock,
    private readonly cacheSeconds: () => number,
  ) {
    this.answers = new LRUCache<string, CachedAnswer>({
      max: ANSWER_CACHE_ENTRIES,
      maxSize: ANSWER_CACHE_BYTES,
      sizeCalculation: (answer) => answer.bytes.length + answer.key.length + 512,
      ttlAutopurge: true,
      // Lifetimes on the context's clock; read at every look-up (no cached "now"), so that a test can move it.
      perf: { now: () => clock.monotonicMs() },
      ttlResolution: 0,
    });
    this.unsubscribe = changes.onSnapshotsChanged((symbol) => (symbol === null ? this.clear() : this.drop(symbol)));
  }

  /** The answer of `planned`: from the cache, or computed, serialised and kept. */
  answer<T>(planned: PlannedAnswer<T>, serialize: (value: T) => string): CachedAnswer {
    const hit = this.answers.get(planned.key);
    if (hit !== undefined) return hit;
    const bytes = Buffer.from(serialize(planned.compute()));
    // The body carries symbol, parameters' results and asOf: its hash changes whenever any of them does.
    const etag = `"${createHash('sha1').update(planned.key).update(bytes).digest('base64url')}"`;
    const answer: CachedAnswer = {
      key: planned.key,
      bytes,
      etag,
      headers: { 'content-type': JSON_TYPE, etag, 'cache-control': CACHE_CONTROL, 'content-length': bytes.length },
      get body() {
        return bytes.toString('utf8');
      },
    };
    const ttlMs = this.cacheSeconds() * 1000;
    // lru-cache reads a TTL of 0 as "forever": cacheSeconds 0 means no caching at all.
    if (ttlMs > 0) this.answers.set(planned.key, answer, { ttl: ttlMs });
    return answer;
  }

  /** After a route computed or found an answer, remembers the (canonical) URL it was dispatched for. */
  rememberUrl(url: string, answer: CachedAnswer, access: Access): void {
    this.urls.set(url, { key: answer.key, access });
  }

  /**
   * The cached answer for a URL seen before, if it is still fresh and its snapshot still the newest: the HTTP fast
   * path serves it without routing or validation (the answer was validated when computed).
   */
  forUrl(url: string): { answer: CachedAnswer; access: Access } | null {
    const remembered = this.urls.get(url);
    if (remembered === undefined) return null;
    // Snapshots stored by another process drop the answers (through onSnapshotsChanged) before the look-up.
    this.changes.refresh();
    const answer = this.answers.get(remembered.key);
    return answer === undefined ? null : { answer, access: remembered.access };
  }

  clear(): void {
    this.answers.clear();
    this.urls.clear();
  }

  /** Drops the answers of one symbol (keys start with `SYMBOL|`). */
  private drop(symbol: string): void {
    const prefix = `${symbol}|`;
    for (const key of [...this.answers.keys()]) if (key.startsWith(prefix)) this.answers.delete(key);
    for (const [url, entry] of [...this.urls.entries()]) if (entry.key.startsWith(prefix)) this.urls.delete(url);
  }

  close(): void {
    this.unsubscribe();
    this.clear();
  }
}
