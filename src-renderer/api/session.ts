/**
 * Where the renderer gets its API address and key.
 * - Electron: the preload exposes `window.strikebook = { apiBaseUrl, token }` and nothing else.
 * - Headless (`strikebook serve`): the printed UI URL carries `#key=<key>`. The key moves into sessionStorage
 *   and leaves the address bar (and so the history and screenshots); the API is the same origin's `/v1`.
 */
export const SESSION_KEY = 'strikebook.apiKey';

export interface ApiSession {
  baseUrl: string;
  token: string;
  /** Where the key came from: the desktop preload, the address's `#key=`, this tab's storage, or typed on the key screen. */
  source: 'electron' | 'fragment' | 'session' | 'typed';
}

declare global {
  interface Window {
    /** The desktop app's preload (src-main/electron/preload.ts); absent in a browser. */
    strikebook?: {
      readonly apiBaseUrl: string;
      readonly token: string;
      /** The system's folder dialog for Settings → Export for research: the folder's grant id and path, or null. */
      readonly chooseExportFolder?: () => Promise<{ folder: string; path: string } | null>;
    };
  }
}

/** What the server accepts as a key (visible ASCII; fetch cannot even send other characters in a header). */
const KEY_SHAPE = /^[\x21-\x7e]{1,512}$/;

/** Null when `key` can be sent as a Bearer key, else why not (shown on the key screen). */
export function keyProblem(key: string): string | null {
  if (key.length > 512) return 'it is longer than any Strikebook key';
  return KEY_SHAPE.test(key) ? null : 'it contains spaces or characters a key never has';
}

/**
 * Pulls `key=` out of a hash like `#key=abc` or `#/journal&key=abc`; returns the rest of the hash. A key that
 * cannot be decoded or could never be sent is reported in `problem` instead (and still taken out of the hash).
 */
export function takeKeyFromHash(hash: string): { key: string | null; rest: string; problem: string | null } {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const parts = body.split(/[&?]/);
  let key: string | null = null;
  let problem: string | null = null;
  const kept: string[] = [];
  for (const part of parts) {
    if (part.startsWith('key=')) {
      try {
        key = decodeURIComponent(part.slice(4));
        problem = key === '' ? null : keyProblem(key);
      } catch {
        key = null;
        problem = 'it is not validly percent-encoded';
      }
      if (problem !== null) key = null;
    } else if (part !== '') kept.push(part);
  }
  return { key: key === '' ? null : key, rest: kept.length > 0 ? `#${kept.join('&')}` : '', problem };
}

/** The session, or null with the reason the address's key was refused (null when there simply was none). */
export interface ResolvedSession {
  session: ApiSession | null;
  problem: string | null;
}

export function resolveSession(win: Window = window): ResolvedSession {
  const bridge = win.strikebook;
  if (bridge && typeof bridge.apiBaseUrl === 'string' && typeof bridge.token === 'string' && bridge.token !== '') {
    return { session: { baseUrl: bridge.apiBaseUrl, token: bridge.token, source: 'electron' }, problem: null };
  }
  const baseUrl = new URL('v1', new URL('/', win.location.href)).toString();
  const { key, rest, problem } = takeKeyFromHash(win.location.hash);
  if (key !== null || problem !== null) {
    // The key (good or bad) leaves the address bar, so that a reload neither repeats nor records it.
    win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}${rest}`);
  }
  if (problem !== null) return { session: null, problem: `The key in the address (#key=…) was not used: ${problem}. Paste the key from the api-key file of the data folder.` };
  if (key !== null) {
    try {
      win.sessionStorage.setItem(SESSION_KEY, key);
    } catch {
      // Storage may be disabled; the key still works for this page load.
    }
    return { session: { baseUrl, token: key, source: 'fragment' }, problem: null };
  }
  let stored: string | null;
  try {
    stored = win.sessionStorage.getItem(SESSION_KEY);
  } catch {
    stored = null;
  }
  return { session: stored !== null && keyProblem(stored) === null ? { baseUrl, token: stored, source: 'session' } : null, problem: null };
}

/** Whether the address carries a `#key=` (a new link opened in this tab: hashchange fires, the page does not reload). */
export function hashHasKey(hash: string): boolean {
  return /^#?(?:.*[&?])?key=/.test(hash);
}

/** The API's address: the preload's in the desktop app, else this page's own origin (`/v1`). */
export function apiBaseUrl(win: Window = window): string {
  const bridge = win.strikebook;
  if (bridge && typeof bridge.apiBaseUrl === 'string') return bridge.apiBaseUrl;
  return new URL('v1', new URL('/', win.location.href)).toString();
}

/**
 * A session with a key the user gave on the key screen: it replaces whatever key the page had (a wrong or rotated one,
 * the preload's included) and is remembered for this tab.
 */
export function typedSession(key: string, win: Window = window): ApiSession {
  try {
    win.sessionStorage.setItem(SESSION_KEY, key);
  } catch {
    // Storage may be disabled; the key still works until the page reloads.
  }
  return { baseUrl: apiBaseUrl(win), token: key, source: 'typed' };
}

export function rememberToken(token: string, win: Window = window): void {
  if (win.strikebook) return;
  try {
    win.sessionStorage.setItem(SESSION_KEY, token);
  } catch {
    // Best effort only.
  }
}
