import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { ApiClient } from './api/client';
import { ApiError } from './api/client';

export const ApiContext = createContext<ApiClient | null>(null);

export function useApi(): ApiClient {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiContext.Provider>');
  return api;
}

export interface AsyncState<T> {
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, 'CLIENT', 'Unexpected error', error instanceof Error ? error.message : String(error));
}

/**
 * Runs `load` whenever `deps` change; aborts the previous call so a slow answer never overwrites a newer one.
 * Keeps the previous data while reloading, so pages don't flash empty.
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): AsyncState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    loadRef
      .current(controller.signal)
      .then((value) => {
        if (controller.signal.aborted) return;
        setData(value);
        setError(null);
        setLoading(false);
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setError(asApiError(err));
        setLoading(false);
      });
    return () => controller.abort();
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** Hash routing: `#/journal`, `#/exposure?symbol=SPX`, `#/campaigns/<id>` (a page's own item: `path`). */
export interface Route {
  page: string;
  /** What follows the page's name, decoded (`#/campaigns/<id>` → the id); null without it. */
  path: string | null;
  params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#\/?/, '');
  const queryAt = body.indexOf('?');
  const location = queryAt < 0 ? body : body.slice(0, queryAt);
  const query = queryAt < 0 ? '' : body.slice(queryAt + 1);
  const slash = location.indexOf('/');
  const page = slash < 0 ? location : location.slice(0, slash);
  let path: string | null = slash < 0 ? null : location.slice(slash + 1);
  try {
    path = path === null || path === '' ? null : decodeURIComponent(path);
  } catch {
    // A hand-typed address with a stray %: the item is not found rather than the page failing.
    path = null;
  }
  return { page: page === '' ? 'journal' : page, path, params: new URLSearchParams(query) };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return parseRoute(hash);
}

export function navigate(page: string, params?: Record<string, string>, path?: string): void {
  window.location.hash = routeHash(page, params, path);
}

/** The address of a page (and of one of its items): what links and navigate() use. */
export function routeHash(page: string, params?: Record<string, string>, path?: string): string {
  const query = params ? new URLSearchParams(params).toString() : '';
  return `#/${page}${path === undefined ? '' : `/${encodeURIComponent(path)}`}${query ? `?${query}` : ''}`;
}

/** The key screen on demand: any 401 and Settings offer it (a wrong or rotated key never traps the page). */
export interface KeyScreen {
  changeKey: (reason?: string) => void;
}
export const KeyScreenContext = createContext<KeyScreen | null>(null);
export function useKeyScreen(): KeyScreen | null {
  return useContext(KeyScreenContext);
}

export type Theme = 'light' | 'dark';
const THEME_KEY = 'strikebook.theme';

export function initialTheme(): Theme {
  try {
    const saved = window.localStorage.getItem(THEME_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // ignore
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try {
    window.localStorage.setItem(THEME_KEY, theme);
  } catch {
    // ignore
  }
}

export const ThemeContext = createContext<Theme>('light');
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
