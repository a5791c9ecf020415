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
  source: 'electron' | 'fragment' | 'session';
}

declare global {
  interface Window {
    strikebook?: { readonly apiBaseUrl: string; readonly token: string };
  }
}

/** Pulls `key=` out of a hash like `#key=abc` or `#/journal&key=abc`; returns the rest of the hash. */
export function takeKeyFromHash(hash: string): { key: string | null; rest: string } {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const parts = body.split(/[&?]/);
  let key: string | null = null;
  const kept: string[] = [];
  for (const part of parts) {
    if (part.startsWith('key=')) key = decodeURIComponent(part.slice(4));
    else if (part !== '') kept.push(part);
  }
  return { key: key === '' ? null : key, rest: kept.length > 0 ? `#${kept.join('&')}` : '' };
}

export function resolveSession(win: Window = window): ApiSession | null {
  const bridge = win.strikebook;
  if (bridge && typeof bridge.apiBaseUrl === 'string' && typeof bridge.token === 'string' && bridge.token !== '') {
    return { baseUrl: bridge.apiBaseUrl, token: bridge.token, source: 'electron' };
  }
  const baseUrl = new URL('v1', new URL('/', win.location.href)).toString();
  const { key, rest } = takeKeyFromHash(win.location.hash);
  if (key !== null) {
    try {
      win.sessionStorage.setItem(SESSION_KEY, key);
    } catch {
      // Storage may be disabled; the key still works for this page load.
    }
    win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}${rest}`);
    return { baseUrl, token: key, source: 'fragment' };
  }
  let stored: string | null;
  try {
    stored = win.sessionStorage.getItem(SESSION_KEY);
  } catch {
    stored = null;
  }
  return stored ? { baseUrl, token: stored, source: 'session' } : null;
}

export function rememberToken(token: string, win: Window = window): void {
  if (win.strikebook) return;
  try {
    win.sessionStorage.setItem(SESSION_KEY, token);
  } catch {
    // Best effort only.
  }
}
