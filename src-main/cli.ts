import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BROKER_IDS, type BrokerId } from '../src-shared/api/schemas';
import { openDataFolder } from './context';
import { DataFolderError } from './db/data-folder';
import { isBusyError } from './db/writes';
import { defaultDataDir } from './paths';
import { ApiError } from './server/problems';
import { startServer } from './serve';
import { ExposureService } from './services/exposure';
import { JournalService } from './services/journal';

const USAGE = `strikebook — trade journal and dealer exposure, with a local /v1 API

Usage:
  strikebook serve [--port <p>] [--data-dir <dir>] [--demo]   headless API + web UI on 127.0.0.1 (--port 0: a free port)
  strikebook import <file...> [--broker <id>] [--account <name>] [--data-dir <dir>]
  strikebook chain import <file...> [--symbol <S>] [--quote-time <iso>] [--format <f>] [--data-dir <dir>]
  strikebook keys create [--name <name>] | keys list | keys revoke <id> [--data-dir <dir>]

Brokers: auto (default), ${BROKER_IDS.join(', ')}
Data folder: --data-dir, else $STRIKEBOOK_DATA_DIR, else ${defaultDataDir()}`;

/** How long a CLI write waits for another process (the running app) to release the database's write lock. */
const CLI_BUSY_TIMEOUT_MS = 30_000;

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
  const folder = openDataFolder({ dataDir, busyTimeoutMs: CLI_BUSY_TIMEOUT_MS });
  const ctx = { ...folder, journal: new JournalService(folder.db, () => folder.settings), exposure: new ExposureService(folder.db, () => folder.settings) };
  try {
    if (command === 'import') {
      if (rest.length === 0) fail('import: name at least one file');
      const broker = (values.broker ?? 'auto') as BrokerId | 'auto';
      if (broker !== 'auto' && !BROKER_IDS.includes(broker)) fail(`unknown broker "${broker}"; one of auto, ${BROKER_IDS.join(', ')}`);
      let failed = false;
      for (const file of rest) {
        try {
          const report = ctx.journal.importFile({ text: readFileSync(file, 'utf8'), broker, ...(values.account ? { accountName: values.account } : {}), filename: file });
          process.stdout.write(`${file}: ${report.broker}, ${report.rows} rows, ${report.imported} imported, ${report.duplicates} duplicates, ${report.skipped.length} skipped, ${report.warnings.length} warnings (import #${report.id})\n`);
          for (const s of report.skipped.slice(0, 20)) process.stdout.write(`  skipped line ${s.line}: ${s.reason}\n`);
        } catch (error) {
          failed = true;
          reportError(file, error);
        }
      }
      if (failed) process.exitCode = 1;
    } else if (command === 'chain' && rest[0] === 'import') {
      const files = rest.slice(1);
      if (files.length === 0) fail('chain import: name at least one file');
      let failed = false;
      for (const file of files) {
        try {
          const result = ctx.exposure.ingestText(readFileSync(file, 'utf8'), {
            ...(values.symbol ? { symbol: values.symbol } : {}),
            ...(values['quote-time'] ? { quoteTime: values['quote-time'] } : {}),
            ...(values.format ? { format: values.format as 'auto' } : {}),
          });
          process.stdout.write(`${file}: ${result.symbol} @ ${result.spot}, ${result.quoteTime}, ${result.contracts} contracts, ${result.expirations} expirations${result.stored ? '' : ' (already stored)'}, ${result.events} events\n`);
        } catch (error) {
          failed = true;
          reportError(file, error);
        }
      }
      if (failed) process.exitCode = 1;
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

const BUSY_MESSAGE = `the database is busy: another program (the running app, a backup tool) held its write lock for ${CLI_BUSY_TIMEOUT_MS / 1000} s; nothing was changed, try again`;

function reportError(file: string, error: unknown): void {
  if (isBusyError(error)) {
    process.stderr.write(`${file}: ${BUSY_MESSAGE}\n`);
  } else if (error instanceof ApiError) {
    process.stderr.write(`${file}: ${error.problem.detail}\n`);
    for (const e of error.problem.errors?.slice(0, 50) ?? []) process.stderr.write(`  ${e.line === undefined ? '' : `line ${e.line}: `}${e.message}\n`);
  } else {
    process.stderr.write(`${file}: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Problems with the data folder or the database (damaged, read-only, newer version): the message, no stack.
  if (error instanceof DataFolderError) fail(error.message, error.exitCode);
  if (isBusyError(error)) fail(BUSY_MESSAGE, 1);
  if (error instanceof Error && 'code' in error && error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') fail(`${error.message}\n\n${USAGE}`);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 1);
});
