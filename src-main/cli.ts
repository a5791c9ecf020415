import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BROKER_IDS, CHAIN_FORMATS } from '../src-shared/api/constants';
import { BUSY_MESSAGE, CLI_BUSY_TIMEOUT_MS, domainFailure, EXIT_FAILED, thrownFailure, type CliFailure } from './cli-errors';
import { systemClock } from './clock';
import { openDataFolder } from './context';
import { DataFolderError } from './db/data-folder';
import { isDatabaseBusy } from './db/writes';
import { defaultDataDir } from './paths';
import { startServer } from './serve';
import { ExposureService } from './services/exposure';
import { importerIdOf } from './importers/index';
import { JournalService } from './services/journal';
import type { Result } from './services/result';

const USAGE = `strikebook — trade journal and dealer exposure, with a local /v1 API

Usage:
  strikebook serve [--port <p>] [--data-dir <dir>] [--demo]   headless API + web UI on 127.0.0.1 (--port 0: a free port)
  strikebook import <file...> [--broker <id>] [--account <name>] [--data-dir <dir>]
  strikebook chain import <file...> [--symbol <S>] [--quote-time <iso>] [--format <f>] [--data-dir <dir>]
  strikebook keys create [--name <name>] | keys list | keys revoke <id> [--data-dir <dir>]

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
      format: { type: 'string' },
      name: { type: 'string' },
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

  // The CLI works in this thread (no event loop to protect), so it may wait for the server's writes to finish.
  const clock = systemClock;
  const folder = openDataFolder({ dataDir, busyTimeoutMs: CLI_BUSY_TIMEOUT_MS, clock });
  const ctx = { ...folder, journal: new JournalService(folder.db, () => folder.settings, clock), exposure: new ExposureService(folder.db, () => folder.settings, clock) };
  try {
    if (command === 'import') {
      if (rest.length === 0) fail('import: name at least one file');
      const broker = values.broker ?? 'auto';
      // A saved format (docs/importers.md, "User-defined formats") is custom:<id>; auto detects saved formats too.
      if (!isOneOf(['auto', ...BROKER_IDS] as const, broker) && !/^custom:[a-z0-9]{1,32}$/.test(broker)) fail(`unknown broker "${broker}"; one of auto, ${BROKER_IDS.join(', ')}, or custom:<id> of a saved format`);
      eachFile(
        rest,
        (text, file) => ctx.journal.importFile({ text, broker: importerIdOf(broker), ...(values.account ? { accountName: values.account } : {}), filename: file }),
        (file, report) => {
          process.stdout.write(`${file}: ${report.broker}, ${report.rows} rows, ${report.imported} imported, ${report.duplicates} duplicates, ${report.skippedCount} skipped, ${report.warningCount} warnings (import #${report.id})\n`);
          for (const s of report.skipped.slice(0, 20)) process.stdout.write(`  skipped line ${s.line}: ${s.reason}\n`);
        },
      );
    } else if (command === 'chain' && rest[0] === 'import') {
      const files = rest.slice(1);
      if (files.length === 0) fail('chain import: name at least one file');
      const format = values.format;
      if (format !== undefined && !isOneOf(CHAIN_FORMATS, format)) fail(`unknown format "${format}"; one of ${CHAIN_FORMATS.join(', ')}`);
      eachFile(
        files,
        (text) =>
          ctx.exposure.ingestText(text, {
            ...(values.symbol ? { symbol: values.symbol } : {}),
            ...(values['quote-time'] ? { quoteTime: values['quote-time'] } : {}),
            ...(format === undefined ? {} : { format }),
          }),
        (file, result) => {
          process.stdout.write(`${file}: ${result.symbol} @ ${result.spot}, ${result.quoteTime}, ${result.contracts} contracts, ${result.expirations} expirations${result.stored ? '' : ' (already stored)'}, ${result.events} events\n`);
        },
      );
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
    folder.db.close();
  }
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
function eachFile<T>(files: readonly string[], run: (text: string, file: string) => Result<T>, report: (file: string, value: T) => void): void {
  for (const file of files) {
    try {
      const result = run(readFileSync(file, 'utf8'), file);
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
