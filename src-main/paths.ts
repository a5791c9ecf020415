import { homedir } from 'node:os';
import { join } from 'node:path';

/** Headless data folder: $STRIKEBOOK_DATA_DIR, else the OS's per-user app-data folder (XDG on Linux). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.STRIKEBOOK_DATA_DIR) return env.STRIKEBOOK_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Strikebook');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Strikebook');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'strikebook');
}
