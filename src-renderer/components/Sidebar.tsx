/**
 * The main navigation. Wide windows show it as a fixed sidebar; under 900 px (styles/narrow.css) it folds away behind
 * a Menu button in a top bar and opens as a drawer over the page: the button is a real <button> with
 * aria-expanded, Escape and the backdrop close the drawer, and choosing a page closes it.
 */
import { useEffect, useRef, useState } from 'react';
import type { Theme } from '../hooks';
import { StatusBadge, StatusLine, useAppStatus } from './StatusLine';

export interface NavPage {
  id: string;
  label: string;
  icon: string;
}

export function Sidebar({ pages, current, theme, onToggleTheme }: { pages: readonly NavPage[]; current: string; theme: Theme; onToggleTheme: () => void }) {
  const [open, setOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const firstLink = useRef<HTMLAnchorElement>(null);

  // A page change (a link, the keyboard, the back button) closes the drawer.
  useEffect(() => setOpen(false), [current]);

  useEffect(() => {
    if (!open) return;
    firstLink.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      menuButton.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const currentLabel = pages.find((p) => p.id === current)?.label ?? '';
  const status = useAppStatus();

  return (
    <>
      <header className="topbar">
        <button
          ref={menuButton}
          type="button"
          className="btn btn-ghost menu-button"
          aria-expanded={open}
          aria-controls="main-nav"
          onClick={() => setOpen((o) => !o)}
        >
          <span aria-hidden="true">☰</span> Menu
        </button>
        <span className="brand topbar-brand">
          <span className="brand-mark" aria-hidden="true" />
          Strikebook
        </span>
        <StatusBadge status={status} />
        <span className="topbar-page">{currentLabel}</span>
      </header>
      {open && <div className="nav-backdrop" onClick={() => setOpen(false)} aria-hidden="true" />}
      <nav
        className={`sidebar ${open ? 'open' : ''}`}
        id="main-nav"
        aria-label="Main"
        onBlur={(event) => {
          // Tabbing out of the open drawer closes it, so focus never sits behind the backdrop.
          const next = event.relatedTarget;
          if (open && next instanceof Node && !event.currentTarget.contains(next) && next !== menuButton.current) setOpen(false);
        }}
      >
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Strikebook
        </div>
        <ul>
          {pages.map((p, i) => (
            <li key={p.id}>
              <a
                ref={i === 0 ? firstLink : undefined}
                href={`#/${p.id}`}
                className={p.id === current ? 'active' : ''}
                aria-current={p.id === current ? 'page' : undefined}
                onClick={() => setOpen(false)}
              >
                <span className="nav-icon" aria-hidden="true">
                  {p.icon}
                </span>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="sidebar-foot">
          <StatusLine status={status} />
          <button type="button" className="btn btn-ghost theme-toggle" onClick={onToggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span> {theme === 'dark' ? 'Light' : 'Dark'} theme
          </button>
        </div>
      </nav>
    </>
  );
}
