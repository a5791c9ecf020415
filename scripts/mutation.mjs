#!/usr/bin/env node
// `npm run mutation`: the Stryker run (stryker.config.mjs) over the whole set, in batches of files. Each batch is a
// Stryker run of its own that ends by writing every mutant's result to the incremental file, so a run stopped midway
// keeps the batches it finished, and the next `npm run mutation` reuses every result whose code and covering tests did
// not change (only each batch's initial test run is paid again). Money and win/loss code goes first.
//   npm run mutation                                 the whole set, batch by batch
//   npm run mutation -- src-shared/journal/lots.ts   some files only (comma- or space-separated, globs allowed)
//   npm run mutation -- --from 4                     the batches from the 4th on (1-based)
//   npm run mutation -- --summary                    the per-file table of the last report, nothing run
// Writes reports/mutation/mutation.{json,html}, stryker-incremental.json and summary.json (the per-file counts).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const report = join(root, 'reports/mutation/mutation.json');
const J = 'src-shared/journal/';

const BATCHES = [
  [`${J}trade-metrics.ts`],
  [`${J}periods.ts`],
  [`${J}lots.ts`],
  ['src-shared/money.ts'],
  ['src-main/server/validation.ts'],
  ['src-main/server/route-kit.ts'],
  [`${J}trade-lots.ts`],
  [`${J}trade-stats.ts`],
  [`${J}book.ts`, `${J}trade-risk.ts`],
  [`${J}ledger.ts`],
  [`${J}reconciliation.ts`],
  [`${J}trade-walk.ts`],
  [`${J}trades.ts`, `${J}rolls.ts`, `${J}campaigns.ts`, `${J}manual-match.ts`, `${J}unmatched.ts`],
  [`${J}corporate-actions.ts`],
  [`${J}collateral.ts`, `${J}manage.ts`],
  [`${J}checkpoints.ts`, `${J}packed.ts`, `${J}order.ts`, `${J}event-order.ts`],
  [`${J}strategies.ts`, `${J}roll-candidates.ts`, `${J}analytics.ts`],
  // The rest of the folder (the glob also re-covers files named above: their results are reused, not run again).
  [`${J}**/*.ts`],
];

function summary() {
  if (!existsSync(report)) {
    console.log('no report yet (reports/mutation/mutation.json)');
    return;
  }
  const { files } = JSON.parse(readFileSync(report, 'utf8'));
  const statuses = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'CompileError', 'RuntimeError'];
  const rows = Object.entries(files).map(([file, { mutants }]) => {
    const count = Object.fromEntries(statuses.map((s) => [s, mutants.filter((m) => m.status === s).length]));
    const detected = count.Killed + count.Timeout;
    const valid = detected + count.Survived + count.NoCoverage;
    return { file: file.replace(`${root}`, ''), mutants: mutants.length, ...count, score: valid === 0 ? null : Math.round((1000 * detected) / valid) / 10, scoreCovered: detected + count.Survived === 0 ? null : Math.round((1000 * detected) / (detected + count.Survived)) / 10 };
  });
  rows.sort((a, b) => a.file.localeCompare(b.file));
  const total = { file: 'all', mutants: 0, ...Object.fromEntries(statuses.map((s) => [s, 0])) };
  for (const row of rows) for (const key of ['mutants', ...statuses]) total[key] += row[key];
  const detected = total.Killed + total.Timeout;
  total.score = Math.round((1000 * detected) / (detected + total.Survived + total.NoCoverage)) / 10;
  total.scoreCovered = Math.round((1000 * detected) / (detected + total.Survived)) / 10;
  writeFileSync(join(root, 'reports/mutation/summary.json'), `${JSON.stringify({ total, files: rows }, null, 2)}\n`);
  console.log('file | mutants | killed | timeout | survived | no coverage | ignored | score % | covered %');
  for (const r of [...rows, total]) console.log([r.file, r.mutants, r.Killed, r.Timeout, r.Survived, r.NoCoverage, r.Ignored, r.score, r.scoreCovered].join(' | '));
}

const args = process.argv.slice(2);
if (args.includes('--summary')) {
  summary();
  process.exit(0);
}
const fromAt = args.indexOf('--from');
const from = fromAt === -1 ? 1 : Number(args[fromAt + 1]);
const files = args.filter((arg, i) => !arg.startsWith('--') && (fromAt === -1 || i !== fromAt + 1)).flatMap((arg) => arg.split(',')).filter((arg) => arg !== '');
const batches = files.length > 0 ? [files] : BATCHES.slice(from - 1);
for (const [i, batch] of batches.entries()) {
  console.log(`\n== mutation batch ${i + from}/${BATCHES.length}: ${batch.join(', ')} (${new Date().toISOString()})`);
  const run = spawnSync('npx', ['stryker', 'run', '--mutate', batch.join(',')], { cwd: root, stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    console.log(`!! batch ${i + from} failed; resume with: npm run mutation -- --from ${i + from}`);
    process.exit(run.status ?? 1);
  }
  summary();
}
