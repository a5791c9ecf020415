/**
 * Uploads to a server on loopback, and the hostile files of issue 16 (docs/importers.md §Bounded, docs/decisions.md
 * §Jobs), for the tests that need a real socket: a client that goes away, a server stopped mid-parse, peak memory.
 */
import { request } from 'node:http';

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
