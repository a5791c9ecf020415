import type { Database } from 'better-sqlite3';
import type { Settings } from '../settings';
import type { KeyStore } from './keys';
import type { JournalService } from '../services/journal';
import type { ExposureService } from '../services/exposure';

/** Everything a route needs; built once by `createContext` (src-main/context.ts) and closed with it. */
export interface AppContext {
  version: string;
  dataDir: string;
  db: Database;
  settings: Settings;
  keys: KeyStore;
  journal: JournalService;
  exposure: ExposureService;
  /** Path of the plaintext key file for the user's scripts. */
  keyFilePath: string;
  demo: boolean;
  /** Replaces the key of the key file (Settings → rotate): returns the new key. */
  rotateKey(): string;
  updateSettings(changes: Partial<Settings>): Settings;
}
