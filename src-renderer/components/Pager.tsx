import type { ReactNode } from 'react';
import { fmtInt } from '../format';

/**
 * Previous / "Page n of m" / next buttons for a paged list; with `ends` also first and last. `shownPage` is the
 * page the list on screen is (the server's answer), `page` the one asked for.
 */
export function Pager({
  label,
  page,
  pages,
  shownPage = page,
  onPage,
  ends = false,
  previousLabel = '‹ Prev',
  nextLabel = 'Next ›',
  children,
}: {
  label: string;
  page: number;
  pages: number;
  shownPage?: number;
  onPage: (page: number) => void;
  ends?: boolean;
  previousLabel?: string;
  nextLabel?: string;
  children?: ReactNode;
}) {
  return (
    <nav className="pager" aria-label={label}>
      {ends && (
        <button type="button" className="btn btn-small" onClick={() => onPage(1)} disabled={page <= 1}>
          « First
        </button>
      )}
      <button type="button" className="btn btn-small" onClick={() => onPage(Math.max(1, page - 1))} disabled={page <= 1}>
        {previousLabel}
      </button>
      <span className="num">
        Page {fmtInt(shownPage)} of {fmtInt(Math.max(1, pages))}
      </span>
      <button type="button" className="btn btn-small" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        {nextLabel}
      </button>
      {ends && (
        <button type="button" className="btn btn-small" onClick={() => onPage(pages)} disabled={page >= pages}>
          Last »
        </button>
      )}
      {children}
    </nav>
  );
}
