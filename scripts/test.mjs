#!/usr/bin/env node
// `npm test`: type check, lint (with the src-shared boundary rule), unit + integration tests, and the browser
// tests (a missing Chromium fails the run). Ends with one plain line `N passed, N failed, N skipped` and exits non-zero
// on any failure. Type check and lint count as one check each.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const e2eOnly = process.argv.includes('--e2e-only');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let passed = 0;
let failed = 0;
let skipped = 0;
/** The failing tests and checks by name, repeated just above the summary (a CI log shows its tail). */
const failures = [];

function run(label, command, args) {
  console.log(`\n== ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status === 0;
}

function check(label, command, args) {
  if (run(label, command, args)) passed += 1;
  else {
    failed += 1;
    failures.push(label);
    console.log(`!! ${label} failed`);
  }
}

function vitest(label, config) {
  const reportDir = join(root, 'test-results');
  mkdirSync(reportDir, { recursive: true });
  const report = join(reportDir, `${label}.json`);
  rmSync(report, { force: true });
  const ok = run(label, 'npx', ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (!existsSync(report)) {
    failed += 1;
    failures.push(`${label}: no report (the runner crashed)`);
    console.log(`!! ${label}: no report (the runner crashed)`);
    return;
  }
  const data = JSON.parse(readFileSync(report, 'utf8'));
  passed += data.numPassedTests;
  failed += data.numFailedTests;
  skipped += data.numPendingTests + data.numTodoTests;
  // A suite that fails to load has no failed tests but a failed file: count it.
  const brokenFiles = data.testResults.filter((file) => file.status === 'failed' && file.assertionResults.every((t) => t.status !== 'failed'));
  failed += brokenFiles.length;
  for (const file of data.testResults) {
    const name = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    for (const t of file.assertionResults) if (t.status === 'failed') failures.push(`${name} › ${t.fullName}`);
    if (brokenFiles.includes(file)) failures.push(`${name} (did not load: ${String(file.message ?? '').split('\n')[0].slice(0, 200)})`);
  }
  if (!ok && data.numFailedTests === 0 && brokenFiles.length === 0) {
    failed += 1;
    failures.push(`${label}: the runner exited non-zero with no failing test`);
  }
}

if (!e2eOnly) {
  check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
  check('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
  vitest('unit+integration', 'vitest.config.ts');
}
if (existsSync(chromium)) {
  // The browser tests drive `strikebook serve`, which serves the built renderer from out/renderer.
  if (run('build:web', 'npm', ['run', '--silent', 'build:web'])) vitest('e2e', 'vitest.e2e.config.ts');
  else {
    failed += 1;
    failures.push('build:web (browser tests not run)');
    console.log('!! build:web failed: browser tests not run');
  }
} else {
  // CI installs Chromium: without it the browser tests cannot run, and a run that left them out would pass blind.
  failed += 1;
  failures.push(`e2e: no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  console.log(`\n!! e2e: no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH): the browser tests did not run`);
}

// A skipped test hides whatever it would have caught (a missing Chromium, a guard left from a branch): it fails the run.
if (skipped > 0) console.log(`!! ${skipped} skipped: every test must run (../shared/fixtures must be present; no test may skip itself)`);
if (failures.length > 0) console.log(`\n!! failed:\n${failures.map((f) => `   ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || skipped > 0 ? 1 : 0);
