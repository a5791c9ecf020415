#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into .electron-native/ (run by `npm start` before electron-vite).
//
// Why a separate folder: node_modules/better-sqlite3 must keep Node's ABI for the tests, the CLI and
// `strikebook serve`. The desktop main process passes `nativeBinding: .electron-native/better_sqlite3.node`
// to the database opener instead (docs/architecture.md §Layout: never make one break the other).
//
// Steps: copy the better-sqlite3 package (without its build) into .electron-native/build/node_modules, run
// @electron/rebuild there for the installed Electron version (prebuilt binary when one exists, else node-gyp
// with Electron's headers), copy the .node file out and write a stamp. Up to date → nothing to do.
// Offline and nothing cached → a clear message and exit 0, so `npm start` still explains what is missing.
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJson } from './desktop-check.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.electron-native');
const target = join(outDir, 'better_sqlite3.node');
const stampFile = join(outDir, 'stamp.json');

function log(message) {
  console.log(`[electron-native] ${message}`);
}

const electronPkg = readJson(join(root, 'node_modules', 'electron', 'package.json'));
const sqlitePkg = readJson(join(root, 'node_modules', 'better-sqlite3', 'package.json'));
if (!electronPkg || !sqlitePkg) {
  log('electron or better-sqlite3 is not installed (run npm install); skipping.');
  process.exit(0);
}

const wanted = { electron: electronPkg.version, betterSqlite3: sqlitePkg.version, platform: process.platform, arch: process.arch };
const stamp = readJson(stampFile);
if (stamp && existsSync(target) && Object.entries(wanted).every(([key, value]) => stamp[key] === value)) {
  log(`better-sqlite3 ${wanted.betterSqlite3} for Electron ${wanted.electron} (${wanted.platform}-${wanted.arch}) is up to date.`);
  process.exit(0);
}

async function online(url) {
  try {
    const response = await fetch(url, { method: 'HEAD', signal: globalThis.AbortSignal.timeout(5000) });
    return response.status < 500;
  } catch {
    return false;
  }
}

// Headers already downloaded by an earlier rebuild make the build possible offline.
const cachedHeaders = [join(homedir(), '.electron-gyp', wanted.electron), join(homedir(), '.cache', 'electron-gyp', wanted.electron)].some((dir) => existsSync(dir));
const headersUrl = `https://www.electronjs.org/headers/v${wanted.electron}/node-v${wanted.electron}-headers.tar.gz`;
if (!cachedHeaders && !(await online(headersUrl))) {
  log('Offline: cannot download Electron headers or a prebuilt better-sqlite3 for Electron ' + `${wanted.electron}.`);
  log('Skipping. The desktop window needs that binary (the Electron binary itself also downloads at first launch);');
  log('run `npm start` again when online. Tests, the CLI and `npm run serve` are unaffected (they use Node\'s build).');
  process.exit(0);
}

let rebuild;
try {
  ({ rebuild } = await import('@electron/rebuild'));
} catch {
  log('@electron/rebuild is not installed (it comes with electron-builder); skipping.');
  process.exit(0);
}

const buildRoot = join(outDir, 'build');
const moduleDir = join(buildRoot, 'node_modules', 'better-sqlite3');
rmSync(buildRoot, { recursive: true, force: true });
mkdirSync(dirname(moduleDir), { recursive: true });
cpSync(join(root, 'node_modules', 'better-sqlite3'), moduleDir, {
  recursive: true,
  filter: (source) => !source.includes(`${join('better-sqlite3', 'build')}`),
});
// better-sqlite3's own dependencies (bindings, prebuild-install) resolve from the project's node_modules.
writeFileSync(join(buildRoot, 'package.json'), JSON.stringify({ name: 'strikebook-electron-native', private: true, dependencies: { 'better-sqlite3': wanted.betterSqlite3 } }, null, 2));

log(`Building better-sqlite3 ${wanted.betterSqlite3} for Electron ${wanted.electron} (${wanted.platform}-${wanted.arch})…`);
try {
  await rebuild({ buildPath: buildRoot, electronVersion: wanted.electron, arch: process.arch, onlyModules: ['better-sqlite3'], force: true });
} catch (error) {
  log(`Rebuild failed: ${error instanceof Error ? error.message : String(error)}`);
  log('Needs a C++ toolchain (build-essential / Xcode CLT / VS Build Tools) and Python when no prebuilt binary exists.');
  process.exit(1);
}

const built = join(moduleDir, 'build', 'Release', 'better_sqlite3.node');
if (!existsSync(built)) {
  log(`Rebuild finished but ${built} is missing.`);
  process.exit(1);
}
cpSync(built, target);
writeFileSync(stampFile, `${JSON.stringify(wanted, null, 2)}\n`);
rmSync(buildRoot, { recursive: true, force: true });
log(`Wrote ${target}.`);
