/**
 * Uploads to a server on loopback, and the hostile files of issue 16 (docs/importers.md §Bounded, docs/decisions.md
 * §Jobs), for the tests that need a real socket: a client that goes away, a server stopped mid-parse, peak memory.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export interface Answer {
  status: number;
  body: string;
  /** performance.now() when the answer ended. */
  at: number;
}

export interface Upload {
  /** The answer; rejects when the request is destroyed first. */
  answer: Promise<Answer>;
  /** Resolves once the whole body has been handed to the socket. */
  sent: Promise<void>;
  /** Goes away: the socket is closed before the answer. */
  abort(): void;
}

/** Sends `body` to `port` (127.0.0.1) with the key; `method` POST unless told. */
export function send(port: number, key: string, path: string, body: string | Buffer, options: { method?: string; contentType?: string } = {}): Upload {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  let markSent = () => undefined as void;
  const sent = new Promise<void>((resolve) => {
    markSent = resolve;
  });
  const req = request({
    host: '127.0.0.1',
    port,
    path,
    // A connection of its own: a kept-alive socket the server has since closed would hang up the next request.
    agent: false,
    method: options.method ?? 'POST',
    headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${key}`, 'content-type': options.contentType ?? 'text/csv', 'content-length': payload.length },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() }));
      response.on('error', reject);
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  req.end(payload, () => markSent());
  return { answer, sent, abort: () => req.destroy() };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const GENERIC_HEADER = 'date,type,symbol,quantity,price,amount\n';
const BAD_ROW = '2024-01-02,BUY,PFE,x,1,-1\n';

/** A generic CSV of `megabytes` whose every row has a bad quantity: a long parse that stores nothing. */
export function badImport(megabytes: number): Buffer {
  return Buffer.from(GENERIC_HEADER + BAD_ROW.repeat(Math.floor((megabytes * 1e6) / BAD_ROW.length)));
}

/** A generic CSV of `megabytes` of short malformed lines (`x,y`): every line an error. */
export function shortLinesImport(megabytes: number): Buffer {
  return Buffer.from(GENERIC_HEADER + 'x,y\n'.repeat(Math.floor((megabytes * 1e6) / 4)));
}

/**
 * A broker file's own first lines (the fixture's head: its title, sections and header), then `megabytes` of `line`:
 * for the formats read whole (thinkorswim statements, IBKR flex queries and activity statements).
 */
export function brokerHeadThenLines(fixture: string, line: string, megabytes: number): Buffer {
  const head = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'brokers', fixture), 'utf8').split('\n').slice(0, 60).join('\n');
  return Buffer.from(`${head}\n${line.repeat(Math.floor((megabytes * 1e6) / line.length))}`);
}

/** A generic CSV whose one row has a quantity cell of `megabytes`. */
export function hugeCellImport(megabytes: number): Buffer {
  return Buffer.from(`${GENERIC_HEADER}2024-01-02,BUY,PFE,${'9'.repeat(Math.floor(megabytes * 1e6))},1,-1\n`);
}

const CHAIN_HEAD = '# symbol: SPX\n# spot: 4700\n# quoteTime: 2024-01-05T16:00\nexpiration,strike,right,openInterest,iv\n';

/** A generic chain CSV of `megabytes` of short malformed lines. */
export function shortLinesChain(megabytes: number): Buffer {
  return Buffer.from(CHAIN_HEAD + 'x\n'.repeat(Math.floor((megabytes * 1e6) / 2)));
}

/** A generic chain CSV whose one row has a strike cell of `megabytes`. */
export function hugeCellChain(megabytes: number): Buffer {
  return Buffer.from(`${CHAIN_HEAD}2024-01-19,${'9'.repeat(Math.floor(megabytes * 1e6))},C,1,0.2\n`);
}

/** A generic JSON chain of `megabytes` of empty objects (`{},` 16 million times in 48 MB). */
export function tinyObjectsJsonChain(megabytes: number): Buffer {
  return Buffer.from(`{"symbol":"SPX","spot":4700,"quoteTime":"2024-01-05T16:00","contracts":[${'{},'.repeat(Math.floor((megabytes * 1e6) / 3))}{}]}`);
}

/** A small chain that stores (two contracts of SPX). */
export const SMALL_CHAIN = `${CHAIN_HEAD}2099-01-16,4700,C,100,0.2\n2099-01-16,4700,P,100,0.2\n`;

/** A small generic import of one deposit (the id makes each call's row its own). */
export function smallImport(id: string): string {
  return `date,type,symbol,quantity,price,amount,id\n2024-01-02,DEPOSIT,,0,0,100,${id}\n`;
}

/** The OCC symbol of a generated contract (root SPXW, expiring in 2099–2100). */
function occOf(expiration: string, right: 'C' | 'P', strike: number): string {
  return `SPXW${expiration.slice(2, 4)}${expiration.slice(5, 7)}${expiration.slice(8, 10)}${right}${String(strike * 1000).padStart(8, '0')}`;
}

/**
 * `count` distinct contracts (weekly expirations from 2099-01-02, 1,500 strikes each, calls and puts), as a large real
 * chain is laid out: what the valid big uploads and refreshes below are made of.
 */
export function* generatedContracts(count: number): Generator<{ expiration: string; strike: number; right: 'C' | 'P'; i: number }> {
  const perExpiration = 3_000;
  for (let i = 0; i < count; i += 1) {
    const week = Math.floor(i / perExpiration);
    const within = i % perExpiration;
    const expiration = new Date(Date.UTC(2099, 0, 2 + week * 7)).toISOString().slice(0, 10);
    yield { expiration, strike: 1000 + Math.floor(within / 2) * 5, right: within % 2 === 0 ? 'C' : 'P', i };
  }
}

/**
 * A CBOE delayed-quotes JSON of `count` options with every field CBOE sends (23 a contract, as in the real
 * `_SPX.json`): about 400 bytes an option, so 110,000 options make the 45 MB file of issue 29.
 */
export function fullCboeJsonChain(count: number): Buffer {
  const parts: string[] = [];
  for (const { expiration, strike, right, i } of generatedContracts(count)) {
    const iv = 0.1 + (i % 97) / 1000;
    parts.push(
      JSON.stringify({
        option: occOf(expiration, right, strike),
        bid: 12.3 + (i % 13),
        bid_size: 10 + (i % 7),
        ask: 12.9 + (i % 13),
        ask_size: 12 + (i % 5),
        iv,
        open_interest: 100 + (i % 5000),
        volume: i % 300,
        delta: right === 'C' ? 0.51234 : -0.48766,
        gamma: 0.00123,
        vega: 1.2345,
        theta: -0.9876,
        rho: 0.1234,
        theo: 12.61,
        change: -0.35,
        open: 12.1,
        high: 13.4,
        low: 11.9,
        tick: i % 2 === 0 ? 'up' : 'down',
        last_trade_price: 12.6,
        last_trade_time: '2099-01-01T15:59:58',
        percent_change: -2.7,
        prev_day_close: 12.95,
      }),
    );
  }
  return Buffer.from(`{"timestamp":"2099-01-01 21:15:04","data":{"symbol":"SPX","current_price":4700,"close":4700,"last_trade_time":"2099-01-01T16:00:00","options":[${parts.join(',')}]}}`);
}

/** The same chain with the five fields the online source reads (about 90 bytes an option: 300,000 fit its 32 MB). */
export function compactCboeJsonChain(count: number, timestamp = '2099-01-01 21:15:04'): Buffer {
  const parts: string[] = [];
  for (const { expiration, strike, right, i } of generatedContracts(count)) {
    parts.push(`{"option":"${occOf(expiration, right, strike)}","iv":${0.1 + (i % 97) / 1000},"open_interest":${100 + (i % 5000)},"bid":${1 + (i % 13)},"ask":${1.2 + (i % 13)},"volume":${i % 300}}`);
  }
  return Buffer.from(`{"timestamp":"${timestamp}","data":{"symbol":"SPX","current_price":4700,"options":[${parts.join(',')}]}}`);
}

/** A generic chain CSV of `count` contracts (about 30 bytes a line). */
export function genericCsvChain(count: number): Buffer {
  const lines = ['# symbol: SPX', '# spot: 4700', '# quoteTime: 2099-01-01T16:00', 'expiration,strike,right,openInterest,iv,bid,ask'];
  for (const { expiration, strike, right, i } of generatedContracts(count)) lines.push(`${expiration},${strike},${right},${100 + (i % 5000)},${0.1 + (i % 97) / 1000},${1 + (i % 13)},${1.2 + (i % 13)}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}
