import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { ApiClient } from './api/client';
import { hashHasKey, keyProblem, rememberToken, resolveSession, typedSession } from './api/session';
import { Sidebar } from './components/Sidebar';
import { Loading } from './components/ui';
import { ApiContext, applyTheme, initialTheme, KeyScreenContext, ThemeContext, useRoute, type KeyScreen, type Theme } from './hooks';
import { ImportPage } from './pages/Import';
import { TransactionsPage } from './pages/Transactions';
import { EventsPage } from './pages/Events';
import { SettingsPage } from './pages/Settings';

// The chart pages carry lightweight-charts; load them on demand to keep the first paint small.
const JournalPage = lazy(() => import('./pages/Journal').then((m) => ({ default: m.JournalPage })));
const ExposurePage = lazy(() => import('./pages/exposure/ExposurePage').then((m) => ({ default: m.ExposurePage })));
const PositionsPage = lazy(() => import('./pages/Positions').then((m) => ({ default: m.PositionsPage })));
const CampaignsPage = lazy(() => import('./pages/Campaigns').then((m) => ({ default: m.CampaignsPage })));
const TradesPage = lazy(() => import('./pages/trades/TradesPage').then((m) => ({ default: m.TradesPage })));
const TodayPage = lazy(() => import('./pages/today/TodayPage').then((m) => ({ default: m.TodayPage })));

const PAGES = [
  // What to manage this morning (docs/ui.md §Today): first in the list; the app still opens on the Journal.
  { id: 'today', label: 'Today', icon: '◎' },
  { id: 'journal', label: 'Journal', icon: '▤' },
  { id: 'positions', label: 'Positions', icon: '◫' },
  { id: 'trades', label: 'Trades', icon: '⇄' },
  { id: 'campaigns', label: 'Campaigns', icon: '↻' },
  { id: 'transactions', label: 'Transactions', icon: '≡' },
  { id: 'import', label: 'Import', icon: '⇪' },
  { id: 'exposure', label: 'Exposure', icon: '◧' },
  { id: 'events', label: 'Events', icon: '⚑' },
  { id: 'settings', label: 'Settings', icon: '⚙' },
] as const;

/**
 * The key screen: the first visit without a key, a key the address carried that cannot be one, or "Change key" (after a
 * 401, or from Settings), where Cancel goes back to the key the page had.
 */
function NoKey({ onKey, problem, onCancel }: { onKey: (key: string) => void; problem: string | null; onCancel?: () => void }) {
  const [key, setKey] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const message = typedProblem ?? problem;
  return (
    <main className="nokey" data-testid="key-screen">
      <div className="nokey-card">
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true" />
          Strikebook
        </div>
        <p>
          This page needs the API key. Open the UI address that <code>strikebook serve</code> printed (it ends in
          <code>#key=…</code>), or paste the key from the <code>api-key</code> file in the data folder.
        </p>
        {message !== null && (
          <p className="alert alert-error" role="alert">
            {message}
          </p>
        )}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const typed = key.trim();
            if (typed === '') return;
            const invalid = keyProblem(typed);
            if (invalid === null) onKey(typed);
            else setTypedProblem(`That is not a key: ${invalid}.`);
          }}
        >
          <label className="field">
            <span>API key</span>
            <input type="password" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" spellCheck={false} autoFocus={onCancel !== undefined} />
          </label>
          <div className="form-actions">
            <button type="submit" className="btn btn-primary">
              Connect
            </button>
            {onCancel && (
              <button type="button" className="btn btn-ghost" onClick={onCancel}>
                Cancel
              </button>
            )}
          </div>
        </form>
      </div>
    </main>
  );
}

export function App() {
  const [resolved, setResolved] = useState(() => resolveSession());
  const session = resolved.session;
  // "Change key" asked for (with why), over the session the page has.
  const [changing, setChanging] = useState<{ reason: string | null } | null>(null);
  const [theme, setTheme] = useState<Theme>(() => initialTheme());
  const route = useRoute();

  const api = useMemo(() => (session ? new ApiClient(session.baseUrl, session.token, (token) => rememberToken(token)) : null), [session]);

  // A new `#key=` link opened in this tab only changes the hash: it replaces the key the page had (a rotated one).
  useEffect(() => {
    const onHash = () => {
      if (!hashHasKey(window.location.hash)) return;
      // Takes the key out of the address (replaceState fires no event: the route is told, so it reads the rest).
      const next = resolveSession();
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      if (next.session) {
        setResolved(next);
        setChanging(null);
      } else {
        // A link whose key cannot be one: say why, over the key the page has (Cancel keeps it).
        setChanging({ reason: next.problem });
      }
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const keyScreen = useMemo<KeyScreen>(() => ({ changeKey: (reason) => setChanging({ reason: reason ?? null }) }), []);

  const toggleTheme = useCallback(() => {
    setTheme((current) => {
      const next: Theme = current === 'dark' ? 'light' : 'dark';
      applyTheme(next);
      return next;
    });
  }, []);

  if (!api || changing !== null) {
    return (
      <NoKey
        problem={changing?.reason ?? resolved.problem}
        onKey={(key) => {
          setResolved({ session: typedSession(key), problem: null });
          setChanging(null);
        }}
        {...(api && changing !== null ? { onCancel: () => setChanging(null) } : {})}
      />
    );
  }

  const page = PAGES.some((p) => p.id === route.page) ? route.page : 'journal';
  const current = PAGES.find((p) => p.id === page);

  return (
    <ApiContext.Provider value={api}>
      <KeyScreenContext.Provider value={keyScreen}>
        <ThemeContext.Provider value={theme}>
          <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
            Skip to content
          </button>
          <div className="shell">
            <Sidebar pages={PAGES} current={page} theme={theme} onToggleTheme={toggleTheme} />
            {/* A new key (Change key, a new #key= link) starts every page again, with its data loaded with that key. */}
            <main className="content" id="main" tabIndex={-1} aria-label={current?.label} key={api.baseUrl + (session?.token ?? '')}>
              <Suspense fallback={<Loading />}>
                {page === 'today' && <TodayPage />}
                {page === 'journal' && <JournalPage />}
                {page === 'positions' && <PositionsPage />}
                {page === 'trades' && <TradesPage />}
                {page === 'campaigns' && <CampaignsPage />}
                {page === 'transactions' && <TransactionsPage />}
                {page === 'import' && <ImportPage />}
                {page === 'exposure' && <ExposurePage route={route} />}
                {page === 'events' && <EventsPage />}
                {page === 'settings' && <SettingsPage theme={theme} onToggleTheme={toggleTheme} />}
              </Suspense>
            </main>
          </div>
        </ThemeContext.Provider>
      </KeyScreenContext.Provider>
    </ApiContext.Provider>
  );
}
