import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BROKER_IDS, CHAIN_FORMATS } from '../src-shared/api/constants';
import { BUSY_MESSAGE, CLI_BUSY_TIMEOUT_MS, domainFailure, EXIT_FAILED, listenFailure, thrownFailure, type CliFailure } from './cli-errors';
import { systemClock } from './clock';
import { DB_FILE, openDataFolder } from './context';
import { backupsFolder, restoreBackup, writeBackup, writeBackupTo } from './db/backups';
import { checkDatabase, hasSqliteHeader } from './db/check';
import { LATEST_VERSION } from './db/migrations/index';
import { DataFolderError, runningServerPid } from './db/data-folder';
import { isDatabaseBusy, WriteQueue } from './db/writes';
import { defaultDataDir } from './paths';
import { startServer } from './serve';
import { ExposureService } from './services/exposure/service';
import { importerIdOf } from './importers/index';
import { CLI_OVERRIDE_NAMES } from './chains/index';
import { runExport, runLakeImport } from './lake/cli';
import { OPENED_BEFORE_LISTED, withOpenedBeforeHistory } from './services/journal/import-attention';
import { runChainBackfill } from './backfill-cli';
import { JournalService } from './services/journal/service';
import { ok, type Result } from './services/result';
import { MINOR_PER_UNIT } from '../src-shared/money';
import type { StatementKind } from '../src-shared/journal/statements';

const USAGE = `strikebook — trade journal and dealer exposure, with a local /v1 API

Usage:
  strikebook serve [--port <p>] [--data-dir <dir>] [--demo]   headless API + web UI on 127.0.0.1 (--port 0: a free port)
  strikebook import <file...> [--broker <id>] [--account <name>] [--data-dir <dir>]
  strikebook chain import <file...> [--symbol <S>] [--spot <price>] [--quote-time <iso>] [--format <f>] [--data-dir <dir>]
  strikebook chain import <lake dir>                     a Parquet lake written by export, snapshot for snapshot
  strikebook chain backfill <dir>                        a folder of historical chain files or a Parquet lake, oldest first (run again to continue)
  strikebook export --out <dir> [--symbol <S>] [--from <date>] [--to <date>] [--data-dir <dir>]
                                                          the Parquet lake for research (docs/research.md)
  strikebook keys create [--name <name>] | keys list | keys revoke <id> [--data-dir <dir>]
  strikebook check [--data-dir <dir>]                    the database's integrity and every stored snapshot read back
  strikebook backup [--out <file>] [--data-dir <dir>]    a backup of the journal (default: into the data folder's backups/)
  strikebook restore <file or backup name> [--data-dir <dir>]
                                                          a backup put in place of the journal (Strikebook stopped)

Brokers: auto (default), ${BROKER_IDS.join(', ')}, custom:<id> (a format saved on the Import page)
Data folder: --data-dir, else $STRIKEBOOK_DATA_DIR, else ${defaultDataDir()}`;

function fail(message: string, code = 2): never {
  process.stderr.write(`strikebook: ${message}\n`);
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      demo: { type: 'boolean' },
      broker: { type: 'string' },
      account: { type: 'string' },
      symbol: { type: 'string' },
      'quote-time': { type: 'string' },
      spot: { type: 'string' },
      format: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dataDir = values['data-dir'] ?? defaultDataDir();

  if (command === 'serve') {
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) fail(`--port must be 0..65535, got ${values.port}`);
    // STRIKEBOOK_KEY_USAGE_FLUSH_MS: how often key-usage stamps are written (default 30 s; tests shorten it).
    const flushMs = Number(process.env.STRIKEBOOK_KEY_USAGE_FLUSH_MS);
    const server = await startServer({
      dataDir,
      ...(Number.isInteger(flushMs) && flushMs > 0 ? { keyUsageFlushMs: flushMs } : {}),
      ...(port === undefined ? {} : { port }),
      ...(values.host === undefined ? {} : { host: values.host }),
      demo: values.demo === true,
      log: (line) => process.stderr.write(`${line}\n`),
    }).catch((error: unknown) => {
      const failure = listenFailure(error, values.host ?? '127.0.0.1', port);
      if (failure === null) throw error;
      return fail(failure.lines.join('\n'), failure.exitCode);
    });
    // Signal handlers first: a script may send SIGINT as soon as it reads the banner.
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      process.stderr.write(`${signal}: finishing requests and closing the database...\n`);
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`close failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.stdout.write(
      [
        `Strikebook ${server.ctx.version} — headless${values.demo ? ' (demo data loaded)' : ''}`,
        `API:      ${server.apiBaseUrl}`,
        `Port:     ${server.port}`,
        ...(server.uiUrl ? [`UI:       ${server.uiUrl}`] : ['UI:       not built (npm run build:web)']),
        `Key file: ${server.keyFilePath}`,
        `Data:     ${server.dataDir}`,
        `Try:      curl -H "Authorization: Bearer $(cat '${server.keyFilePath}')" ${server.apiBaseUrl}/journal/summary`,
        '',
      ].join('\n'),
    );
    return;
  }

  if (command === 'check') {
    if (rest.length > 0) fail(`check takes no arguments (got ${rest.join(' ')})`);
    process.exitCode = runCheck(join(dataDir, DB_FILE));
    return;
  }
  if (command === 'restore') {
    // Before the data folder is opened: the journal it replaces may be too damaged to open.
    if (rest.length !== 1) fail('restore: name one backup (a file, or a name listed in the data folder\'s backups/)');
    process.exitCode = runRestore(dataDir, rest[0] ?? '');
    return;
  }

  // The CLI works in this thread (no event loop to protect), so it may wait for the server's writes to finish.
  const clock = systemClock;
  const folder = openDataFolder({ dataDir, busyTimeoutMs: CLI_BUSY_TIMEOUT_MS, clock });
  // The connection's busy_timeout is the CLI's wait for another process's lock: its write turns add none (waitMs 0).
  const writes = new WriteQueue(folder.db, 0);
  const ctx = { ...folder, journal: new JournalService(folder.db, () => folder.settings, clock), exposure: new ExposureService(folder.db, () => folder.settings, clock, writes) };
  try {
    if (command === 'import') {
      if (rest.length === 0) fail('import: name at least one file');
      const broker = values.broker ?? 'auto';
      // A saved format (docs/importers.md, "User-defined formats") is custom:<id>; auto detects saved formats too.
      if (!isOneOf(['auto', ...BROKER_IDS] as const, broker) && !/^custom:[a-z0-9]{1,32}$/.test(broker)) fail(`unknown broker "${broker}"; one of auto, ${BROKER_IDS.join(', ')}, or custom:<id> of a saved format`);
      await eachFile(
        rest,
        async (text, file) => {
          // Parsed before the turn, as the server does: the lock is held for the store alone.
          const parsed = ctx.journal.parse({ text, broker: importerIdOf(broker), ...(values.account ? { accountName: values.account } : {}), filename: file });
          if (!parsed.ok) return parsed;
          const stored = await writes.run((turn) => ctx.journal.storeParsed(turn, parsed.value));
          // Its closes without an opening, in the words of the Positions page (services/journal/import-attention.ts).
          return ok(withOpenedBeforeHistory(stored, ctx.journal.openedBeforeHistory([stored.id]).get(stored.id)));
        },
        (file, report) => {
          process.stdout.write(`${file}: ${report.broker}, ${report.rows} rows, ${report.imported} imported, ${report.duplicates} duplicates, ${report.skippedCount} skipped, ${report.warningCount} warnings (import #${report.id})\n`);
          // Openings entered by hand that this file's rows replace (docs/journal.md, "Manual entries").
          if (report.supersededManualCount > 0) process.stdout.write(`${file}: ${report.supersededManualCount} manual opening(s) replaced by the file's rows (undo the import to restore them)\n`);
          for (const s of report.skipped.slice(0, 20)) process.stdout.write(`  skipped line ${s.line}: ${s.reason}\n`);
          // The closes without an opening are the report's last warnings (import-attention.ts).
          const listed = Math.min(report.openedBeforeHistory ?? 0, OPENED_BEFORE_LISTED);
          for (const w of report.warnings.slice(report.warnings.length - listed).slice(0, 20)) process.stdout.write(`  warning: ${w.message}\n`);
          // The file's own figures against the journal's (docs/journal.md §Reconciliation): the differences, each with its line.
          const rows = report.reconciliation ?? [];
          if (rows.length > 0) process.stdout.write(`${file}: ${report.status === 'differs' ? 'differs from the broker’s figures' : 'agrees with the broker’s figures'} (${(report.reconciliationCount ?? rows.length) - (report.reconciliationDiffers ?? 0)} of ${report.reconciliationCount ?? rows.length} agree)\n`);
          for (const row of rows.filter((r) => !r.ok).slice(0, 20)) process.stdout.write(`  differs${row.line === null ? '' : ` line ${row.line}`}: ${row.label}${row.symbol === null ? '' : ` ${row.symbol}`}: broker ${figure(row.what, row.broker)}, journal ${figure(row.what, row.journal)}, difference ${figure(row.what, row.difference)}${row.note === null ? '' : ` (${row.note})`}\n`);
        },
      );
    } else if (command === 'export') {
      if (rest.length > 0) fail(`export takes no file names (got ${rest.join(' ')}); name the folder with --out`);
      reportLakeFailure(runExport(folder, { ...(values.out === undefined ? {} : { out: values.out }), ...(values.symbol ? { symbol: values.symbol } : {}), ...(values.from ? { from: values.from } : {}), ...(values.to ? { to: values.to } : {}) }));
    } else if (command === 'chain' && rest[0] === 'backfill') {
      if (rest.length !== 2) fail('chain backfill: name one folder of chain files or a Parquet lake (strikebook chain backfill <dir>)');
      reportLakeFailure(await runChainBackfill(rest[1] ?? '', folder, ctx.exposure, writes, clock));
    } else if (command === 'chain' && rest[0] === 'import' && rest.length === 2 && isFolder(rest[1])) {
      reportLakeFailure(await runLakeImport(rest[1] ?? '', ctx.exposure, folder.settings));
    } else if (command === 'chain' && rest[0] === 'import') {
      const files = rest.slice(1);
      if (files.length === 0) fail('chain import: name at least one file');
      const format = values.format;
      if (format !== undefined && !isOneOf(CHAIN_FORMATS, format)) fail(`unknown format "${format}"; one of ${CHAIN_FORMATS.join(', ')}`);
      const spot = values.spot === undefined ? undefined : Number(values.spot);
      if (spot !== undefined && !(Number.isFinite(spot) && spot > 0)) fail(`--spot must be a positive number, got ${values.spot}`);
      await eachFile(
        files,
        (text) =>
          ctx.exposure.ingest({
            file: text,
            options: {
              ...(values.symbol ? { symbol: values.symbol } : {}),
              ...(values['quote-time'] ? { quoteTime: values['quote-time'] } : {}),
              ...(format === undefined ? {} : { format }),
              ...(spot === undefined ? {} : { spot }),
              names: CLI_OVERRIDE_NAMES,
            },
          }),
        (file, result) => {
          process.stdout.write(`${file}: ${result.symbol} @ ${result.spot}, ${result.quoteTime}, ${result.contracts} contracts, ${result.expirations} expirations${result.stored ? '' : ' (already stored)'}, ${result.events} events (snapshot #${result.id})\n`);
          for (const warning of result.warnings) process.stdout.write(`  warning: ${warning}\n`);
        },
      );
    } else if (command === 'backup') {
      if (rest.length > 0) fail(`backup takes no file names (got ${rest.join(' ')}); name a file with --out`);
      if (values.out !== undefined) {
        const written = writeBackupTo(folder.db, resolve(values.out));
        if (!written.ok) fail(`backup: ${written.problem}`, EXIT_FAILED);
        process.stdout.write(`${written.path}: a backup of ${folder.dbPath} (${(written.bytes / 1e6).toFixed(1)} MB)\n`);
      } else {
        const written = writeBackup(folder.db, dataDir, 'manual', clock.nowMs(), folder.settings.backupsKept);
        process.stdout.write(`${written.path}: a backup of ${folder.dbPath} (${(written.bytes / 1e6).toFixed(1)} MB); the newest ${folder.settings.backupsKept} are kept\n`);
      }
    } else if (command === 'keys') {
      const [action, id] = rest;
      if (action === 'create') {
        const created = ctx.keys.create(values.name ?? 'cli');
        process.stdout.write(`${created.key}\n`);
        process.stderr.write(`Key ${created.id} created. It is shown once; store it safely.\n`);
      } else if (action === 'list') {
        for (const key of ctx.keys.list()) {
          process.stdout.write(`${key.id}  ${key.name.padEnd(20)}  created ${key.createdAt}  ${key.revokedAt ? `revoked ${key.revokedAt}` : `active${key.lastUsedAt ? `, last used ${key.lastUsedAt}` : ''}`}\n`);
        }
      } else if (action === 'revoke') {
        if (!id) fail('keys revoke: give the key id (see keys list)');
        const revoked = ctx.keys.revoke(id);
        if (!revoked) fail(`no single active key matches "${id}"`);
        process.stdout.write(`revoked ${revoked.id}\n`);
      } else {
        fail('keys: create, list or revoke');
      }
    } else {
      fail(`unknown command "${[command, ...rest].join(' ')}"\n\n${USAGE}`);
    }
  } finally {
    await ctx.exposure.close();
    folder.db.close();
  }
}

/**
 * `strikebook restore FILE`: a backup (a path, or a name in the data folder's backups/) put in place of the journal,
 * checked first (integrity, a schema version this Strikebook knows); refused while a server runs on the data folder
 * (Settings → Backups restores through the app, at its next start). One line either way.
 */
function runRestore(dataDir: string, named: string): number {
  const inFolder = join(backupsFolder(dataDir), named);
  const path = !named.includes('/') && existsSync(inFolder) ? inFolder : resolve(named);
  const pid = runningServerPid(dataDir);
  if (pid !== null) {
    process.stderr.write(`strikebook: restore: Strikebook is running on ${dataDir} (process ${pid}): stop it first, or restore from Settings → Backups, which replaces the journal at the next start\n`);
    return EXIT_FAILED;
  }
  const dbPath = join(dataDir, DB_FILE);
  const restored = restoreBackup(dataDir, dbPath, path, systemClock.nowMs());
  if (!restored.ok) {
    process.stderr.write(`strikebook: restore: ${restored.problem}; nothing was changed\n`);
    return EXIT_FAILED;
  }
  const { replaced, schemaVersion } = restored.report;
  const before = replaced === null ? 'there was no journal before' : replaced.kind === 'backup' ? `the journal it replaced is backed up as ${replaced.backup.path}` : `the journal it replaced could not be read and was moved to ${replaced.path}`;
  process.stdout.write(`${dbPath}: restored from ${path} (schema version ${schemaVersion}${schemaVersion < LATEST_VERSION ? `, upgraded to ${LATEST_VERSION} when Strikebook next opens it` : ''}); ${before}\n`);
  return 0;
}

/**
 * `strikebook check`: SQLite's integrity check and every stored snapshot decoded, read-only (the server may run);
 * what is damaged is listed on stdout, and the exit status is 1 when anything is.
 */
function runCheck(dbPath: string): number {
  if (!existsSync(dbPath)) {
    process.stdout.write(`${dbPath}: no database yet, nothing to check\n`);
    return 0;
  }
  if (!hasSqliteHeader(dbPath)) {
    process.stdout.write(`${dbPath}: not an SQLite database (its header is wrong); restore a backup (strikebook restore <file>)\n`);
    return EXIT_FAILED;
  }
  let report;
  try {
    report = checkDatabase(dbPath);
  } catch (error) {
    process.stdout.write(`${dbPath}: cannot be read (${error instanceof Error ? error.message : String(error)}); restore a backup (strikebook restore <file>)\n`);
    return EXIT_FAILED;
  }
  const snapshots = `${report.snapshots.toLocaleString('en-US')} snapshot${report.snapshots === 1 ? '' : 's'}`;
  const lines = [
    `${dbPath}: schema version ${report.schemaVersion}; integrity ${report.integrity.length === 0 ? 'ok' : `${report.integrity.length} problem${report.integrity.length === 1 ? '' : 's'}`}; ` +
      `${snapshots} read back, ${report.damaged.length === 0 ? 'none damaged' : `${report.damaged.length} damaged`}`,
    ...report.integrity.map((problem) => `  integrity: ${problem.replace(/\s+/g, ' ')}`),
    ...report.damaged.map((d) => `  snapshot ${d.id} of ${d.symbol} (quoted ${d.quoteTime}) is damaged: ${d.reason}; delete it: DELETE /v1/snapshots/${d.id}`),
  ];
  if (report.integrity.length > 0) lines.push('The file itself is damaged: restore a backup (strikebook restore <file>; the backups are in the data folder\'s backups/).');
  process.stdout.write(`${lines.join('\n')}\n`);
  return report.integrity.length > 0 || report.damaged.length > 0 ? EXIT_FAILED : 0;
}

/** A reconciliation figure as the CLI prints it: money in the currency to the cent, positions in units. */
function figure(what: StatementKind, value: number): string {
  return what === 'position' ? String(value) : (value / MINOR_PER_UNIT).toFixed(2);
}

function isFolder(path: string | undefined): boolean {
  try {
    return path !== undefined && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A lake command's failure: its lines on stderr, its exit status. */
function reportLakeFailure(failure: CliFailure | null): void {
  if (failure === null) return;
  for (const line of failure.lines) process.stderr.write(`${line}\n`);
  process.exitCode = Math.max(Number(process.exitCode ?? 0), failure.exitCode);
}

function isOneOf<const T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

/** A file that failed: its name before the message, the details below; the command exits with its status. */
function reportFailure(file: string, failure: CliFailure): void {
  const [message, ...details] = failure.lines;
  process.stderr.write(`${file}: ${message ?? ''}\n`);
  for (const line of details) process.stderr.write(`${line}\n`);
  process.exitCode = Math.max(Number(process.exitCode ?? 0), failure.exitCode);
}

/** Runs `run` on each file in turn; a file that fails is reported and the others still run. */
async function eachFile<T>(files: readonly string[], run: (text: string, file: string) => Promise<Result<T>>, report: (file: string, value: T) => void): Promise<void> {
  for (const file of files) {
    try {
      const result = await run(readFileSync(file, 'utf8'), file);
      if (result.ok) report(file, result.value);
      else reportFailure(file, domainFailure(result.error));
    } catch (error) {
      reportFailure(file, thrownFailure(error));
    }
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Problems with the data folder or the database (damaged, read-only, newer version): the message, no stack.
  if (error instanceof DataFolderError) fail(error.message, error.exitCode);
  if (isDatabaseBusy(error)) fail(BUSY_MESSAGE, EXIT_FAILED);
  if (error instanceof Error && 'code' in error && error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') fail(`${error.message}\n\n${USAGE}`);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 1);
});
