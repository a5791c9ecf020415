/**
 * Child process of hostile-memory.test.ts: a real server on loopback (startServer, as `strikebook serve` runs it)
 * over the data folder argv[2] and the UI folder argv[3], holding a generated chain of many expirations. Prints
 * `{"port", "key", "expirations"}` once listening; then answers each `rss` line on stdin with the resident set
 * size in bytes after a full garbage collection (run with --expose-gc), and exits on `exit`.
 */
import { createInterface } from 'node:readline';
import type { ChainSnapshot, OptionContract } from '../../../../src-shared/exposure/model';
import { startServer } from '../../../../src-main/serve';
import { storeChain } from '../../../helper';
import { asTicker } from '../../../../src-shared/ids';

const [dataDir, uiDir, cacheSeconds] = process.argv.slice(2);
if (dataDir === undefined || uiDir === undefined) throw new Error('usage: hostile-memory.child.ts <dataDir> <uiDir> [cacheSeconds]');

/** 16 monthly expirations × 300 strikes: a whole-chain answer of a few hundred KB, like a real index chain. */
function chain(): ChainSnapshot {
  const contracts: OptionContract[] = [];
  for (let month = 0; month < 16; month += 1) {
    const expiration = `2099-${String((month % 12) + 1).padStart(2, '0')}-${month < 12 ? '16' : '17'}`;
    for (let i = 0; i < 300; i += 1) {
      const strike = 4000 + i * 5;
      for (const right of ['C', 'P'] as const) {
        contracts.push({ root: 'MEM', expiration, strike, right, openInterest: 100 + ((i * 37 + month * 11) % 900), iv: 0.15 + (i % 7) / 100, bid: 1, ask: 1.1, multiplier: 100 });
      }
    }
  }
  return { symbol: 'MEM', spot: 4750, quoteTime: '2099-01-02T15:00:00Z', source: 'generic', contracts };
}

const server = await startServer({
  dataDir,
  port: 0,
  uiDir,
  overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 }, ...(cacheSeconds === undefined ? {} : { cacheSeconds: Number(cacheSeconds) }) },
});
storeChain(server.ctx, chain());
const stored = await server.ctx.exposure.expirations(asTicker('MEM'));
if (!stored.ok) throw new Error('the MEM snapshot was not stored');
process.stdout.write(`${JSON.stringify({ port: server.port, key: server.apiKey, expirations: stored.value.snapshot.expirations })}\n`);

const gc = (globalThis as { gc?: () => void }).gc;
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'rss') {
    for (let i = 0; i < 3; i += 1) gc?.();
    process.stdout.write(`rss ${process.memoryUsage().rss}\n`);
  } else if (line === 'exit') {
    await server.close();
    process.exit(0);
  }
}
