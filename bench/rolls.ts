/**
 * journal.rolls_ms and journal.manage_ms (issue 30, DESIGN §5 "Management rules and rolls": the roll assistant ≤ 50 ms
 * on the 21,000-contract SPX chain): GET /v1/journal/trades/{id}/rolls for a short SPXW strangle (two legs, 8
 * expirations × 6 strikes each) against the real SPX chain of 2024-01-05 (../shared/fixtures/chains), and GET
 * /v1/journal/manage beside it, through the real path (the server, the journal worker). The first read of each is
 * information (it builds the trades and reads the snapshot); the budget is the reads after it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../src-main/server/app';
import { createContext } from '../src-main/context';
import { manualClock } from '../test/clock';
import { CHAIN_FIXTURES, tempDir } from '../test/paths';
import { against, atMost, info, timeMs, type BenchLine } from './lib';
import { baselines, sampleMs } from './baselines';

const CHAIN = join(CHAIN_FIXTURES, 'SPX_quotedata_2024-01-05close_phammings.csv');

export async function benchRolls(): Promise<BenchLine[]> {
  const dir = tempDir('strikebook-bench-rolls-');
  // Monday 2024-01-08 10:00 New York: the Sunday-quoted chain is one trading day old, fresh for a trading decision.
  const ctx = createContext({ dataDir: dir, clock: manualClock('2024-01-08T15:00:00Z'), overrides: { rateLimit: { perSecond: 1e9, burst: 1e9 } } });
  try {
    const app = await buildApp(ctx, { port: 7717 });
    await app.ready();
    const headers = { host: '127.0.0.1:7717', authorization: `Bearer ${ctx.apiKey}` };
    const send = async (method: 'GET' | 'POST', url: string, type?: string, payload?: string) => {
      const response = await app.inject({ method, url, headers: { ...headers, ...(type ? { 'content-type': type } : {}) }, ...(payload === undefined ? {} : { payload }) });
      if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      return response;
    };
    const chain = await send('POST', '/v1/chains?symbol=SPX', 'text/csv', readFileSync(CHAIN, 'utf8'));
    const contracts = chain.json<{ contracts?: number }>().contracts ?? 0;
    const leg = (strike: number, right: 'P' | 'C', price: number) => ({ account: 'Margin', date: '2024-01-05T20:00:00Z', type: 'SELL_TO_OPEN', symbol: 'SPXW', expiration: '2024-01-12', strike, right, quantity: 1, price, orderId: 'S1' });
    await send('POST', '/v1/journal/transactions', 'application/json', JSON.stringify({ transactions: [leg(4600, 'P', 5), leg(4800, 'C', 3)] }));
    const trades = (await send('GET', '/v1/journal/trades')).json<{ trades: Array<{ id: string; strategy: string }> }>().trades;
    const strangle = trades.find((t) => t.strategy === 'short_strangle');
    if (strangle === undefined) throw new Error(`no strangle among ${trades.map((t) => t.strategy).join(', ')}`);
    const url = `/v1/journal/trades/${encodeURIComponent(strangle.id)}/rolls`;
    const firstStart = performance.now();
    const first = (await send('GET', url)).json<{ legs: Array<{ candidates: unknown[] }> }>();
    const firstMs = performance.now() - firstStart;
    const candidates = first.legs.reduce((sum, l) => sum + l.candidates.length, 0);
    const rollsMs = await timeMs(() => send('GET', url), 31, 5);
    const base = baselines();
    const rollsBase = sampleMs(base.json, rollsMs);
    const manageMs = await timeMs(() => send('GET', '/v1/journal/manage'), 31, 5);
    await app.close();
    return [
      against(atMost('journal.rolls_ms', rollsMs, 'ms', 50, `a short strangle's ${first.legs.length} legs, ${candidates} candidates, on the real SPX chain of ${contracts} contracts; first read ${Math.round(firstMs)} ms`), base.json, rollsBase),
      info(atMost('journal.manage_ms', manageMs, 'ms', 50, 'GET /journal/manage beside it (one open trade, its rules)')),
    ];
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
