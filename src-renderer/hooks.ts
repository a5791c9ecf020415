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

/** Any failure as the ApiError a page shows; `title` says what failed when the server did not answer. */
export function asApiError(error: unknown, title = 'Unexpected error'): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, 'CLIENT', title, error instanceof Error ? error.message : String(error));
}

/** False once the component is gone: an answer that arrives later must not set its state. */
export function useAlive(): { readonly current: boolean } {
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  return alive;
}

/** How useFollow follows a job: `poll` asks for it again, `onNext` takes the answer (setting the job, so the next poll follows). */
export interface Follow<T> {
  isRunning: (job: T) => boolean;
  poll: (job: T, signal: AbortSignal) => Promise<T>;
  onNext: (next: T) => void;
  /** A failed poll, titled `failure` when the server did not answer; the following stops. */
  onError: (error: ApiError) => void;
  failure: string;
  everyMs: number;
}

/**
 * Follows a job the server runs in the background (an export, a refresh pass), started here or elsewhere: while it
 * runs, one poll `everyMs` after each answer, never two at once; leaving the page aborts the poll in flight.
 */
export function useFollow<T>(job: T | null, follow: Follow<T>): void {
  const alive = useAlive();
  const latest = useRef(follow);
  latest.current = follow;
  useEffect(() => {
    if (job === null || !latest.current.isRunning(job)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      latest.current.poll(job, controller.signal).then(
        (next) => {
          if (alive.current) latest.current.onNext(next);
        },
        (caught: unknown) => {
          if (!controller.signal.aborted && alive.current) latest.current.onError(asApiError(caught, latest.current.failure));
        },
      );
    }, latest.current.everyMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [job, alive]);
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

/** While a journal answer says `building`, asks again every `everyMs` until the new version answers (docs/journal.md §Reads during a build). */
export function useReloadWhileBuilding(building: boolean, reload: () => void, everyMs = 1_000): void {
  useEffect(() => {
    if (!building) return;
    const timer = setTimeout(reload, everyMs);
    return () => clearTimeout(timer);
  }, [building, reload, everyMs]);
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
