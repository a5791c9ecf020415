import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { ApiClient } from './api/client';
import { keyProblem, rememberToken, resolveSession } from './api/session';
import { Sidebar } from './components/Sidebar';
import { Loading } from './components/ui';
import { ApiContext, applyTheme, initialTheme, ThemeContext, useRoute, type Theme } from './hooks';
import { ImportPage } from './pages/Import';
import { TransactionsPage } from './pages/Transactions';
import { EventsPage } from './pages/Events';
import { SettingsPage } from './pages/Settings';

// The chart pages carry lightweight-charts; load them on demand to keep the first paint small.
const JournalPage = lazy(() => import('./pages/Journal').then((m) => ({ default: m.JournalPage })));
const ExposurePage = lazy(() => import('./pages/exposure/ExposurePage').then((m) => ({ default: m.ExposurePage })));
const PositionsPage = lazy(() => import('./pages/Positions').then((m) => ({ default: m.PositionsPage })));
const CampaignsPage = lazy(() => import('./pages/Campaigns').then((m) => ({ default: m.CampaignsPage })));

const PAGES = [
  { id: 'journal', label: 'Journal', icon: '▤' },
  { id: 'positions', label: 'Positions', icon: '◫' },
  { id: 'campaigns', label: 'Campaigns', icon: '↻' },
  { id: 'transactions', label: 'Transactions', icon: '≡' },
  { id: 'import', label: 'Import', icon: '⇪' },
  { id: 'exposure', label: 'Exposure', icon: '◧' },
  { id: 'events', label: 'Events', icon: '⚑' },
  { id: 'settings', label: 'Settings', icon: '⚙' },
] as const;

function NoKey({ onKey, problem }: { onKey: (key: string) => void; problem: string | null }) {
  const [key, setKey] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const message = typedProblem ?? problem;
  return (
    <main className="nokey">
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
            <input type="password" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" spellCheck={false} />
          </label>
          <button type="submit" className="btn btn-primary">
            Connect
          </button>
        </form>
      </div>
    </main>
  );
}

export function App() {
  const [resolved, setResolved] = useState(() => resolveSession());
  const session = resolved.session;
  const [theme, setTheme] = useState<Theme>(() => initialTheme());
  const route = useRoute();

  const api = useMemo(() => (session ? new ApiClient(session.baseUrl, session.token, (token) => rememberToken(token)) : null), [session]);

  const toggleTheme = useCallback(() => {
    setTheme((current) => {
      const next: Theme = current === 'dark' ? 'light' : 'dark';
      applyTheme(next);
      return next;
    });
  }, []);

  if (!api) {
    return (
      <NoKey
        problem={resolved.problem}
        onKey={(key) => {
          rememberToken(key);
          setResolved(resolveSession());
        }}
      />
    );
  }

  const page = PAGES.some((p) => p.id === route.page) ? route.page : 'journal';
  const current = PAGES.find((p) => p.id === page);

  return (
    <ApiContext.Provider value={api}>
      <ThemeContext.Provider value={theme}>
        <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
          Skip to content
        </button>
        <div className="shell">
          <Sidebar pages={PAGES} current={page} theme={theme} onToggleTheme={toggleTheme} />
          <main className="content" id="main" tabIndex={-1} aria-label={current?.label}>
            <Suspense fallback={<Loading />}>
              {page === 'journal' && <JournalPage />}
              {page === 'positions' && <PositionsPage />}
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
    </ApiContext.Provider>
  );
}
