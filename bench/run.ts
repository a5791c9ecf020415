/**
 * `npm run bench [-- --json] [-- --only <prefix>] [-- --lake-snapshots N] [-- --history-snapshots N]`: the budgets (docs/decisions.md §Benchmarks), as medians, one line
 * per measurement. With --json each line is `{name, value, unit, budget, ok, info?, detail?}`. Exit code 1 if a
 * budget is missed; lines marked `info` (absolute figures that a same-run ratio decides for) never fail the run.
 */
import { rmSync } from 'node:fs';
import { startServer } from '../src-main/serve';
import { tempDir } from '../test/paths';
import { benchHttp } from './http';
import { benchExposure } from './exposure';
import { benchChainPicture } from './chain-picture';
import { benchJournal } from './journal';
import { benchJournalReady } from './journal-ready';
import { benchTrades } from './trades';
import { benchTradesApi } from './trades-api';
import { benchRolls } from './rolls';
import { benchLake } from './lake';
import { benchHistory } from './history';
import { benchBackfill } from './backfill';
import { benchImportFormats } from './import-formats';
import { benchLinearTime } from './linear-time';
import { benchResponsiveness } from './responsiveness';
import { benchServer } from './server';
import { benchUi } from './ui';
import type { BenchLine } from './lib';

const json = process.argv.includes('--json');
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex === -1 ? null : (process.argv[onlyIndex + 1] ?? null);
const lakeIndex = process.argv.indexOf('--lake-snapshots');
/** Snapshots the lake bench exports (DESIGN.md §9: 1,000; fewer while developing on the shared machine). */
const lakeSnapshots = lakeIndex === -1 ? 1000 : Math.max(1, Number(process.argv[lakeIndex + 1]) || 1000);
const historyIndex = process.argv.indexOf('--history-snapshots');
/** Snapshots the history bench stores (DESIGN.md §7: 1,000). */
const historySnapshots = historyIndex === -1 ? 1000 : Math.max(1, Number(process.argv[historyIndex + 1]) || 1000);
const lines: BenchLine[] = [];

function emit(line: BenchLine): void {
  lines.push(line);
  if (json) process.stdout.write(`${JSON.stringify(line)}\n`);
  else {
    // A line with a ratio shows both: the absolute figure (its verdict in brackets: information) and the deciding ratio.
    const ratio = line.ratio ? `  [absolute ${line.absoluteOk ? 'ok' : 'over'}; ÷ ${line.ratio.baseline} ${line.ratio.baselineMs} ms = ${line.ratio.value} budget ${line.ratio.budget}]` : '';
    process.stdout.write(`${line.info ? 'info' : line.ok ? 'ok  ' : 'MISS'} ${line.name.padEnd(34)} ${String(line.value).padStart(12)} ${line.unit.padEnd(8)} budget ${line.budget}${ratio}${line.detail ? `  (${line.detail})` : ''}\n`);
  }
}

function wanted(prefix: string): boolean {
  return only === null || prefix.startsWith(only) || only.startsWith(prefix);
}

async function main(): Promise<void> {
  if (wanted('exposure')) for (const line of await benchExposure()) emit(line);
  if (wanted('exposure')) for (const line of await benchChainPicture()) emit(line);
  if (wanted('journal')) for (const line of await benchJournal()) emit(line);
  if (wanted('journal.ready')) for (const line of await benchJournalReady()) emit(line);
  if (wanted('journal.custom')) for (const line of benchImportFormats()) emit(line);
  if (wanted('import.linear_time')) for (const line of benchLinearTime()) emit(line);
  if (wanted('journal.trades')) for (const line of await benchTrades()) emit(line);
  if (wanted('journal.trades_api')) for (const line of await benchTradesApi()) emit(line);
  if (wanted('journal.rolls') || wanted('journal.manage')) for (const line of await benchRolls()) emit(line);
  if (wanted('responsiveness')) for (const line of await benchResponsiveness()) emit(line);
  if (wanted('server') || wanted('soak')) for (const line of await benchServer()) emit(line);
  if (wanted('lake')) for (const line of benchLake(lakeSnapshots)) emit(line);
  if (wanted('backfill')) for (const line of await benchBackfill()) emit(line);
  if (wanted('history')) for (const line of await benchHistory(historySnapshots)) emit(line);
  if (wanted('ui')) for (const metric of await benchUi()) emit({ ...metric, budget: `<= ${metric.budget}` });
  if (wanted('http')) {
    const dataDir = tempDir('strikebook-bench-');
    const server = await startServer({ dataDir, port: 0, demo: true, uiDir: null, overrides: { rateLimit: { perSecond: 1e9, burst: 1e9 } } });
    try {
      for (const line of await benchHttp(server, '/v1/gex?symbol=SPX')) emit(line);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

main().then(
  () => process.exit(lines.every((line) => line.ok || line.info === true) ? 0 : 1),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
