#!/usr/bin/env node
// `npm start`, first step: can the desktop app run here? Before anything is built or started, checks
// - the Node version: Electron 45's tooling (electron's installer, @electron/get, @electron/rebuild) needs the
//   version in package.json `engines` (>= 22.12);
// - the Electron binary, which electron's postinstall downloads (node_modules/electron/path.txt names it under
//   node_modules/electron/dist/; ELECTRON_OVERRIDE_DIST_PATH points elsewhere). Offline installs have none.
// Anything missing → one message (what, how to get it, and `npm run serve` as the way to use Strikebook
// without the desktop app), exit 1. `--root <dir>` checks another checkout (the tests use a fake one).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** [major, minor, patch] of "v22.12.0" or "22.12.0". */
function parseVersion(text) {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function older(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
}

/** The lower bound of an `engines.node` range such as ">=22.12.0" (null when it has none). */
export function minimumNode(range) {
  const match = />=\s*(\d+\.\d+\.\d+)/.exec(range ?? '');
  return match ? match[1] : null;
}

/** The problems that keep the desktop app from starting; empty when it can start. */
export function desktopProblems({ root, nodeVersion = process.version, env = process.env }) {
  const problems = [];
  const required = minimumNode(readJson(join(root, 'package.json'))?.engines?.node);
  const current = parseVersion(nodeVersion);
  const minimum = required === null ? null : parseVersion(required);
  if (current !== null && minimum !== null && older(current, minimum)) {
    problems.push(`Node ${nodeVersion} is older than the desktop tooling needs (Electron 45, @electron/get, @electron/rebuild: Node >= ${required}). Install Node ${minimum[0]} or newer.`);
  }
  const electronDir = join(root, 'node_modules', 'electron');
  const electronPkg = readJson(join(electronDir, 'package.json'));
  if (electronPkg === null) {
    problems.push('Electron is not installed (node_modules/electron is missing): run `npm install`.');
    return problems;
  }
  const pathFile = join(electronDir, 'path.txt');
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const distDir = env.ELECTRON_OVERRIDE_DIST_PATH ? resolve(env.ELECTRON_OVERRIDE_DIST_PATH) : join(electronDir, 'dist');
  const binary = executable === null ? null : join(distDir, executable);
  if (binary === null || !existsSync(binary)) {
    problems.push(
      `The Electron ${electronPkg.version} binary is missing (${binary ?? join(electronDir, 'path.txt')} does not exist): it is downloaded by electron's installer, ` +
        'which needs the internet (or was skipped with ELECTRON_SKIP_BINARY_DOWNLOAD). When online, run `node node_modules/electron/install.js`, ' +
        'or point ELECTRON_OVERRIDE_DIST_PATH at an unpacked Electron of that version.',
    );
  }
  return problems;
}

export function describeProblems(problems) {
  return [
    "Strikebook's desktop app cannot start here:",
    ...problems.map((problem) => `  - ${problem}`),
    'Without it, `npm run serve` runs the same API and the same UI in your browser (no Electron needed; it prints the address).',
  ].join('\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const rootFlag = process.argv.indexOf('--root');
  const root = rootFlag === -1 ? fileURLToPath(new URL('..', import.meta.url)) : resolve(process.argv[rootFlag + 1] ?? '.');
  const problems = desktopProblems({ root });
  if (problems.length > 0) {
    console.error(describeProblems(problems));
    process.exit(1);
  }
}
