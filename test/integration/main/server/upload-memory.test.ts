/**
 * Memory of hostile uploads (docs/importers.md §Bounded; issue 16, finding 2): a 49 MB file of short malformed lines,
 * one of a single huge cell and (chains) a JSON of millions of empty objects, sent to `POST /v1/imports` and `POST /v1/chains` of a real `strikebook serve`. The
 * process's peak RSS (VmHWM, reset before each upload) may rise at most 300 MB above the idle server. Before, every bad
 * line was kept as an error object (and a chain file as 25 million line objects): 4.9 GB on /v1/imports, 1.7 GB on
 * /v1/chains. The figures are printed for the report.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../../cli';
import { tempDir } from '../../../paths';
import { brokerHeadThenLines, hugeCellChain, hugeCellImport, send, shortLinesChain, shortLinesImport, SMALL_CHAIN, smallImport, tinyObjectsJsonChain } from '../../../uploads';

const GROWTH_LIMIT_MB = 300;
const SIZE_MB = 49;

let server: ServeProcess;
let key = '';
let idleMb = 0;

/** A line of /proc/<pid>/status in MB (VmRSS now, VmHWM the peak since the last reset). */
function statusMb(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
}

beforeAll(async () => {
  server = await startServe(['--port', '0', '--data-dir', tempDir()]);
  key = readFileSync(server.keyFile, 'utf8').trim();
  // Both workers started and warm: the idle server is the one that has served an import and a chain.
  expect((await send(server.port, key, '/v1/imports?broker=generic', smallImport('warm')).answer).status).toBe(201);
  expect((await send(server.port, key, '/v1/chains', SMALL_CHAIN).answer).status).toBe(201);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  idleMb = statusMb('VmRSS');
}, 180_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
});

const CASES: Array<{ name: string; path: string; body: () => Buffer }> = [
  { name: 'imports: short malformed lines', path: '/v1/imports?broker=generic', body: () => shortLinesImport(SIZE_MB) },
  { name: 'imports: one huge cell', path: '/v1/imports?broker=generic', body: () => hugeCellImport(SIZE_MB) },
  { name: 'imports (detected): short malformed lines', path: '/v1/imports', body: () => shortLinesImport(SIZE_MB) },
  // Read whole for their sections: every line was a record kept (3 GB); now at most MAX_WHOLE_FILE_RECORDS (issue 29).
  { name: 'imports: a thinkorswim statement, then short lines', path: '/v1/imports?broker=thinkorswim', body: () => brokerHeadThenLines('thinkorswim_statement_pfe_wheel_selfwritten.csv', 'x,y\n', SIZE_MB) },
  { name: 'imports: an IBKR flex query, then short lines', path: '/v1/imports?broker=ibkr', body: () => brokerHeadThenLines('ibkr_flex_query_selfwritten.csv', 'x,y\n', SIZE_MB) },
  { name: 'imports: an IBKR activity statement, then short section lines', path: '/v1/imports?broker=ibkr', body: () => brokerHeadThenLines('ibkr_activity_statement_selfwritten.csv', 'Trades,Data,x,y\n', SIZE_MB) },
  { name: 'chains: short malformed lines', path: '/v1/chains', body: () => shortLinesChain(SIZE_MB) },
  { name: 'chains: one huge cell', path: '/v1/chains', body: () => hugeCellChain(SIZE_MB) },
  // JSON.parse builds every element: its shape is counted first (chains/json.ts, jsonShapeProblem). 1.4 GB before.
  { name: 'chains: JSON of millions of empty objects', path: '/v1/chains', body: () => tinyObjectsJsonChain(SIZE_MB) },
];

describe(`a ${SIZE_MB} MB hostile upload raises the server's peak RSS by at most ${GROWTH_LIMIT_MB} MB`, () => {
  for (const { name, path, body } of CASES) {
    it(name, async () => {
      const file = body();
      // Linux: writing 5 to clear_refs resets the peak (VmHWM) to the current RSS.
      writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
      const answer = await send(server.port, key, path, file).answer;
      expect(answer.status, answer.body.slice(0, 300)).toBe(422);
      const peakMb = statusMb('VmHWM');
      console.log(`${name}: idle ${idleMb.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB (+${(peakMb - idleMb).toFixed(0)} MB); answer ${(answer.body.length / 1024).toFixed(0)} KB`);
      expect(peakMb - idleMb, `peak ${peakMb.toFixed(0)} MB over an idle ${idleMb.toFixed(0)} MB`).toBeLessThanOrEqual(GROWTH_LIMIT_MB);
    }, 300_000);
  }
});
