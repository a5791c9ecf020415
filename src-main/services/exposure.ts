import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { LRUCache } from 'lru-cache';
import type {
  ChainPostQueryT,
  EventsQueryT,
  ExpirationsResponseT,
  ExposureEventJson,
  Formula,
  GexQueryT,
  GexResponseT,
  VannaQueryT,
  VannaResponseT,
} from '../../src-shared/api/schemas';
import {
  availableExpirations,
  computeGex,
  computeVanna,
  emptyChainReason,
  evaluateEvents,
  expirationDetails,
  prepareChain,
  type ConfirmedState,
  type EventDraft,
  type ExcludedContracts,
  type PreparedChain,
} from '../../src-shared/exposure/index';
import type { ChainSnapshot } from '../../src-shared/exposure/model';
import { parseChainFile } from '../chains/index';
import { packContracts, SnapshotRepository, unpackContracts } from '../db/snapshots';
import { dataVersionReader } from '../db/open';
import { ApiError } from '../server/problems';
import type { Access } from '../server/gate';
import type { Settings } from '../settings';
import { addDays, daysBetween, todayIn } from '../time';

export const EVENTS_LIMIT_CAP = 200;
const EVENTS_LIMIT_DEFAULT = 50;
const NEW_YORK = 'America/New_York';

export interface CachedAnswer {
  /** Symbol, snapshot and parameters: what the answer depends on. */
  key: string;
  /** The JSON text (decoded from `bytes` on demand: only the bytes are kept). */
  readonly body: string;
  /** The answer, encoded once for HTTP and the fast path. */
  bytes: Buffer;
  etag: string;
  /** Response headers of a 200, built once. */
  headers: Record<string, string | number>;
}

/**
 * Bounds of the answer cache: a client cycling through `expirations=` subsets (or any parameters) evicts the
 * least recently used answers instead of growing the heap. A whole-chain SPX answer is about 1 MB.
 */
const ANSWER_CACHE_ENTRIES = 256;
const ANSWER_CACHE_BYTES = 64 * 1024 * 1024;
/** Request URLs remembered for the fast path, bounded the same way (a URL is at most 8 KB, target.ts). */
const REMEMBERED_URLS = 2_000;
const REMEMBERED_URL_BYTES = 2 * 1024 * 1024;

/** A request URL the router dispatched to a cached-answer route, with that route's access. */
interface RememberedUrl {
  key: string;
  access: Access;
}

interface LoadedChain {
  snapshotId: number;
  symbol: string;
  source: string;
  quoteTime: string;
  chain: PreparedChain;
  expirations: string[];
}

export interface IngestResult {
  symbol: string;
  spot: number;
  quoteTime: string;
  source: string;
  contracts: number;
  /** Expirations /v1/expirations shows: unexpired at the quote time, standard roots. */
  expirations: number;
  excluded: ExcludedContracts;
  stored: boolean;
  events: number;
}

type EventListener = (event: ExposureEventJson) => void;

/**
 * Chains, exposure answers and events. Answers are cached as serialised JSON per (symbol, parameters) for
 * `cacheSeconds`, and dropped as soon as a newer snapshot of the symbol is stored.
 */
export class ExposureService {
  private readonly repo: SnapshotRepository;
  private readonly chains = new Map<string, LoadedChain>();
  /** Answers live `cacheSeconds` (per entry, purged on expiry so that the memory goes back too). */
  private readonly answers = new LRUCache<string, CachedAnswer>({
    max: ANSWER_CACHE_ENTRIES,
    maxSize: ANSWER_CACHE_BYTES,
    sizeCalculation: (answer) => answer.bytes.length + answer.key.length + 512,
    ttlAutopurge: true,
  });
  /** Request URL → answer key, so that a repeated request finds its cached answer without routing. */
  private readonly urlKeys = new LRUCache<string, RememberedUrl>({ max: REMEMBERED_URLS, maxSize: REMEMBERED_URL_BYTES, sizeCalculation: (entry, url) => url.length + entry.key.length + 64 });
  private readonly emitter = new EventEmitter();

  constructor(
    private readonly db: Database,
    private readonly settings: () => Settings,
  ) {
    this.repo = new SnapshotRepository(db);
    this.emitter.setMaxListeners(0);
    this.readDataVersion = dataVersionReader(db);
  }

  // ------------------------------------------------------------ ingest

  ingestText(text: string, query: ChainPostQueryT): IngestResult {
    const options: Parameters<typeof parseChainFile>[1] = {};
    if (query.format !== undefined) options.format = query.format;
    if (query.symbol !== undefined) options.symbol = query.symbol.toUpperCase();
    if (query.quoteTime !== undefined) options.quoteTime = query.quoteTime;
    const parsed = parseChainFile(text, options);
    if (!parsed.ok) {
      const first = parsed.errors[0];
      throw new ApiError(
        'IMPORT_FAILED',
        `The chain file has ${parsed.errors.length} problem${parsed.errors.length === 1 ? '' : 's'}${first ? ` (first: ${first.line === null ? '' : `line ${first.line}: `}${first.message})` : ''}; nothing was stored.`,
        parsed.errors.slice(0, 500).map((e) => (e.line === null ? { param: 'body', message: e.message } : { param: 'body', message: e.message, line: e.line })),
      );
    }
    return this.ingest(parsed.snapshot);
  }

  /** Stores a snapshot; when it is the symbol's newest, evaluates events and drops the symbol's cache. */
  ingest(snapshot: ChainSnapshot): IngestResult {
    const symbol = snapshot.symbol.toUpperCase();
    const quoteMs = Date.parse(snapshot.quoteTime);
    if (Number.isNaN(quoteMs)) throw new ApiError('IMPORT_FAILED', `The snapshot's quote time "${snapshot.quoteTime}" is not a date.`, [{ param: 'quoteTime', message: 'is not a date' }]);
    // One spelling of instants everywhere, so that ordering by quote_time as text is chronological.
    const normalized: ChainSnapshot = { ...snapshot, symbol, quoteTime: new Date(quoteMs).toISOString() };
    // Prepared once (cached per snapshot object): a chain with nothing to show is refused before anything is stored.
    const prepared = prepareChain(normalized, { rate: this.settings().rate });
    const empty = emptyChainReason(prepared);
    if (empty !== null) throw new ApiError('IMPORT_FAILED', `The chain was not stored: ${empty}.`, [{ param: 'body', message: empty }]);
    const payload = packContracts(normalized.contracts);
    const created: ExposureEventJson[] = [];
    const outcome = this.db.transaction(() => {
      const { id, inserted } = this.repo.insert(normalized, payload);
      if (!inserted) return { inserted };
      const previousLatest = this.repo.latestQuoteTime(symbol, id);
      const isNewest = previousLatest === null || normalized.quoteTime > previousLatest;
      if (isNewest) {
        const chain = prepareChain(normalized, { rate: this.settings().rate });
        created.push(...this.applyEvents(symbol, chain, normalized.quoteTime));
        this.chains.set(symbol, { snapshotId: id, symbol, source: normalized.source, quoteTime: normalized.quoteTime, chain, expirations: availableExpirations(chain) });
        this.dropAnswers(symbol);
      }
      this.repo.prune(symbol, this.settings().snapshotRetention);
      return { inserted };
    })();
    for (const event of created) this.emitter.emit('event', event);
    return {
      symbol,
      spot: normalized.spot,
      quoteTime: normalized.quoteTime,
      source: normalized.source,
      contracts: normalized.contracts.length,
      expirations: prepared.expirations.length,
      excluded: prepared.excluded,
      stored: outcome.inserted,
      events: created.length,
    };
  }

  private applyEvents(ticker: string, chain: PreparedChain, quoteTime: string): ExposureEventJson[] {
    const rows = this.db.prepare('SELECT expiration, zone, call_wall, put_wall FROM exposure_state WHERE ticker = ?').all(ticker) as Array<{
      expiration: string;
      zone: string;
      call_wall: number | null;
      put_wall: number | null;
    }>;
    const previous = new Map<string, ConfirmedState>(
      rows.map((row) => [row.expiration, { zone: row.zone === 'negative' ? 'negative' : 'positive', callWallStrike: row.call_wall, putWallStrike: row.put_wall }]),
    );
    const { events, states } = evaluateEvents(ticker, chain, previous);
    const upsert = this.db.prepare(
      `INSERT INTO exposure_state (ticker, expiration, zone, call_wall, put_wall, quote_time) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(ticker, expiration) DO UPDATE SET zone = excluded.zone, call_wall = excluded.call_wall, put_wall = excluded.put_wall, quote_time = excluded.quote_time`,
    );
    for (const [expiration, state] of states) upsert.run(ticker, expiration, state.zone, state.callWallStrike, state.putWallStrike, quoteTime);
    const insert = this.db.prepare('INSERT OR IGNORE INTO events (id, ticker, event_type, expiration, timestamp, payload) VALUES (?, ?, ?, ?, ?, ?)');
    const today = todayIn(NEW_YORK);
    const created: ExposureEventJson[] = [];
    for (const draft of events) {
      const id = eventId(draft);
      const payload = JSON.stringify(draft);
      if (insert.run(id, draft.ticker, draft.eventType, draft.expiration, draft.timestamp, payload).changes > 0) {
        created.push(toEventJson(id, draft, today));
      }
    }
    return created;
  }

  onEvent(listener: EventListener): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  // ------------------------------------------------------------ reads

  private dataVersion = -1;
  private readonly readDataVersion: () => number;

  private loaded(symbolParam: string): LoadedChain {
    const symbol = symbolParam.toUpperCase();
    // A snapshot stored by another connection (the CLI) makes the prepared chains and answers stale.
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.reset();
    }
    if (!this.chains.has(symbol)) {
      const row = this.repo.latest(symbol);
      // Unknown symbols are not remembered: a client cycling through names would grow the map.
      if (row !== null) {
        const snapshot: ChainSnapshot = { symbol, spot: row.spot, quoteTime: row.quoteTime, source: row.source, contracts: unpackContracts(row.payload) };
        const chain = prepareChain(snapshot, { rate: this.settings().rate });
        this.chains.set(symbol, { snapshotId: row.id, symbol, source: row.source, quoteTime: row.quoteTime, chain, expirations: availableExpirations(chain) });
      }
    }
    const loaded = this.chains.get(symbol);
    if (!loaded) {
      const known = this.repo.symbols();
      throw new ApiError('UNKNOWN_SYMBOL', `No chain snapshot for ${symbol}. ${known.length > 0 ? `Known symbols: ${known.join(', ')}.` : 'Import a chain first (POST /v1/chains or `strikebook chain import`), or start with --demo.'}`, [{ param: 'symbol', message: 'has no snapshot' }]);
    }
    return loaded;
  }

  /** Drops prepared chains and answers (after a settings change such as r). */
  reset(): void {
    this.chains.clear();
    this.answers.clear();
    this.urlKeys.clear();
  }

  /** After a route computed or found an answer, remembers the (canonical) URL it was dispatched for. */
  rememberUrl(url: string, answer: CachedAnswer, access: Access): void {
    this.urlKeys.set(url, { key: answer.key, access });
  }

  /**
   * The cached answer for a URL seen before, if it is still fresh and no other connection has written since:
   * the HTTP fast path serves it without routing or validation (the answer was validated when computed).
   */
  answerForUrl(url: string): { answer: CachedAnswer; access: Access } | null {
    const remembered = this.urlKeys.get(url);
    if (remembered === undefined) return null;
    const version = this.readDataVersion();
    if (version !== this.dataVersion) return null;
    const answer = this.answers.get(remembered.key);
    return answer === undefined ? null : { answer, access: remembered.access };
  }

  private dropAnswers(symbol: string): void {
    const prefix = `${symbol}|`;
    for (const key of [...this.answers.keys()]) if (key.startsWith(prefix)) this.answers.delete(key);
    for (const [url, entry] of [...this.urlKeys.entries()]) if (entry.key.startsWith(prefix)) this.urlKeys.delete(url);
  }

  private cached(key: string, compute: () => string): CachedAnswer {
    const hit = this.answers.get(key);
    if (hit !== undefined) return hit;
    const bytes = Buffer.from(compute());
    // The body carries symbol, parameters' results and asOf: its hash changes whenever any of them does.
    const etag = `"${createHash('sha1').update(key).update(bytes).digest('base64url')}"`;
    const headers = { 'content-type': 'application/json; charset=utf-8', etag, 'cache-control': 'private, no-cache', 'content-length': bytes.length };
    const answer: CachedAnswer = {
      key,
      bytes,
      etag,
      headers,
      get body() {
        return bytes.toString('utf8');
      },
    };
    const ttlMs = this.settings().cacheSeconds * 1000;
    // lru-cache reads a TTL of 0 as "forever": cacheSeconds 0 means no caching at all.
    if (ttlMs > 0) this.answers.set(key, answer, { ttl: ttlMs });
    return answer;
  }

  gex(query: GexQueryT, serialize: (value: GexResponseT) => string): CachedAnswer {
    const loaded = this.loaded(query.symbol);
    const formula: Formula = query.formula ?? 'nominal';
    let expirations: string[];
    if (query.expirations !== undefined) {
      const requested = [...new Set(query.expirations.split(','))].sort();
      const unknown = requested.filter((e) => !loaded.expirations.includes(e));
      if (unknown.length > 0) {
        throw new ApiError(
          'UNKNOWN_EXPIRATION',
          `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not available for ${loaded.symbol}. Valid: ${loaded.expirations.join(', ')}.`,
          unknown.map((e) => ({ param: 'expirations', message: `${e} is not available` })),
        );
      }
      expirations = requested;
    } else {
      expirations = loaded.expirations.slice(0, query.expirationsCount ?? 3);
    }
    const key = `${loaded.symbol}|gex|${loaded.snapshotId}|${formula}|${expirations.join(',')}`;
    return this.cached(key, () => {
      const result = computeGex(loaded.chain, { expirations, formula });
      return serialize({
        ...result,
        symbol: loaded.symbol,
        meta: { ...result.meta, source: loaded.source, snapshotTime: loaded.quoteTime },
        asOf: new Date().toISOString(),
      });
    });
  }

  vanna(query: VannaQueryT, serialize: (value: VannaResponseT) => string): CachedAnswer {
    const loaded = this.loaded(query.symbol);
    const expiration = query.expiration ?? null;
    if (expiration !== null && !loaded.expirations.includes(expiration)) {
      throw new ApiError('UNKNOWN_EXPIRATION', `${expiration} is not available for ${loaded.symbol}. Valid: ${loaded.expirations.join(', ')}.`, [{ param: 'expiration', message: `${expiration} is not available` }]);
    }
    const key = `${loaded.symbol}|vanna|${loaded.snapshotId}|${expiration ?? ''}`;
    return this.cached(key, () => {
      const result = computeVanna(loaded.chain, { expiration });
      return serialize({
        ...result,
        symbol: loaded.symbol,
        availableExpirations: loaded.expirations,
        meta: { source: loaded.source, snapshotTime: loaded.quoteTime, ...result.meta },
        asOf: new Date().toISOString(),
      });
    });
  }

  expirations(symbol: string): ExpirationsResponseT {
    const loaded = this.loaded(symbol);
    return {
      symbol: loaded.symbol,
      expirations: loaded.expirations,
      details: expirationDetails(loaded.chain),
      snapshotTime: loaded.quoteTime,
      meta: { excludedContracts: loaded.chain.excluded.adjusted },
    };
  }

  events(query: EventsQueryT): { events: ExposureEventJson[] } {
    const limit = Math.min(query.limit ?? EVENTS_LIMIT_DEFAULT, EVENTS_LIMIT_CAP);
    if (query.minDte !== undefined && query.maxDte !== undefined && query.minDte > query.maxDte) {
      throw new ApiError('INVALID_PARAMETER', `minDte (${query.minDte}) is greater than maxDte (${query.maxDte}).`, [{ param: 'minDte', message: 'must not exceed maxDte' }]);
    }
    const today = todayIn(NEW_YORK);
    const where: string[] = [];
    const params: Array<string | number> = [];
    if (query.tickers !== undefined) {
      const tickers = [...new Set(query.tickers.split(',').map((t) => t.toUpperCase()))];
      where.push(`ticker IN (${tickers.map(() => '?').join(', ')})`);
      params.push(...tickers);
    }
    if (query.eventType !== undefined && query.eventType !== 'all') {
      where.push('event_type = ?');
      params.push(query.eventType);
    }
    if (query.minDte !== undefined) {
      where.push('expiration >= ?');
      params.push(addDays(today, query.minDte));
    }
    if (query.maxDte !== undefined) {
      where.push('expiration <= ?');
      params.push(addDays(today, query.maxDte));
    }
    const rows = this.db
      .prepare(`SELECT id, payload FROM events ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY timestamp DESC, id DESC LIMIT ?`)
      .all(...params, limit) as Array<{ id: string; payload: string }>;
    return { events: rows.map((row) => toEventJson(row.id, JSON.parse(row.payload) as EventDraft, today)) };
  }

  chainsList(): { symbols: Array<{ symbol: string; spot: number; quoteTime: string; source: string; contracts: number; expirations: number; snapshots: number }> } {
    return {
      symbols: this.repo.summaries().map((s) => ({ symbol: s.symbol, spot: s.spot, quoteTime: s.quote_time, source: s.source, contracts: s.contracts, expirations: s.expirations, snapshots: s.snapshots })),
    };
  }
}

export function eventId(draft: EventDraft): string {
  const side = draft.eventType === 'wall' ? draft.wallType : '';
  return `ev_${createHash('sha256').update([draft.ticker, draft.expiration, draft.eventType, side, draft.timestamp].join('|')).digest('hex').slice(0, 24)}`;
}

function toEventJson(id: string, draft: EventDraft, today: string): ExposureEventJson {
  return { ...draft, id, dte: daysBetween(today, draft.expiration) } as ExposureEventJson;
}

