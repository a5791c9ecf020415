import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type OpenOptions } from './db/open';
import type { AppContext } from './server/context';
import { ensureKeyFile, KeyStore, writeKeyFile } from './server/keys';
import { ExposureService } from './services/exposure';
import { JournalService } from './services/journal';
import { loadSettings, saveSettings, type Settings } from './settings';

export const DB_FILE = 'strikebook.db';

export interface ContextOptions {
  dataDir: string;
  demo?: boolean;
  /** Settings that win over the stored ones for this run (tests, --port). Not saved. */
  overrides?: Partial<Settings>;
  nativeBinding?: string;
}

export interface OwnedContext extends AppContext {
  apiKey: string;
  backupPath: string | null;
  close(): void;
}

export function appVersion(): string {
  // From the sources (src-main/) or the bundle (out/node/), package.json is one or two folders up.
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'strikebook' && pkg.version) return pkg.version;
    } catch {
      // Not there: try the next candidate.
    }
  }
  return '0.0.0';
}

/** Opens (and migrates) the data folder: the database, settings, keys and the services over them. */
export function createContext(options: ContextOptions): OwnedContext {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const openOptions: OpenOptions = options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding };
  const { db, backupPath } = openDatabase(join(options.dataDir, DB_FILE), openOptions);
  const overrides = options.overrides ?? {};
  let settings = loadSettings(db, overrides);
  const keys = new KeyStore(db);
  const keyFile = ensureKeyFile(keys, options.dataDir);
  const getSettings = () => settings;
  const journal = new JournalService(db, getSettings);
  const exposure = new ExposureService(db, getSettings);
  const usageTimer = setInterval(() => keys.flushUsage(), 30_000);
  usageTimer.unref();

  const ctx: OwnedContext = {
    version: appVersion(),
    dataDir: options.dataDir,
    db,
    get settings() {
      return settings;
    },
    keys,
    journal,
    exposure,
    keyFilePath: keyFile.path,
    apiKey: keyFile.key,
    backupPath,
    demo: options.demo === true,
    rotateKey() {
      const current = keys.verify(ctx.apiKey);
      const { key } = keys.create('default (rotated)');
      writeKeyFile(keyFile.path, key);
      if (current !== null) keys.revoke(current);
      ctx.apiKey = key;
      return key;
    },
    updateSettings(changes) {
      saveSettings(db, changes);
      settings = loadSettings(db, overrides);
      if (changes.rate !== undefined) exposure.reset();
      if (changes.timeZone !== undefined) journal.redate(settings.timeZone);
      else if (changes.reportingCurrency !== undefined) journal.invalidate();
      return settings;
    },
    close() {
      clearInterval(usageTimer);
      keys.flushUsage();
      db.close();
    },
  };
  return ctx;
}
