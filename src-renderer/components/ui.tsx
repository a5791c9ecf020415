import type { ReactNode } from 'react';
import type { ApiError } from '../api/client';
import { fmtMoney, signClass } from '../format';
import { useKeyScreen } from '../hooks';
import type { StatusFilter } from '../pages/list-address';

export function Money({ value, currency = 'USD', signed = true, colored = true }: { value: number; currency?: string; signed?: boolean; colored?: boolean }) {
  return <span className={`num ${colored ? signClass(value) : ''}`}>{fmtMoney(value, currency, signed)}</span>;
}

export function Stat({ label, value, sub, tone, title, testId, explain }: { label: string; value: ReactNode; sub?: ReactNode; tone?: string; title?: string; testId?: string; explain?: string }) {
  return (
    <div className={`stat ${tone ?? ''}`} title={title} data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value num">{value}</div>
      {sub !== undefined && <div className="stat-sub">{sub}</div>}
      {/* What the figure means, in a few words (its title says it in a sentence). */}
      {explain !== undefined && <div className="stat-explain">{explain}</div>}
    </div>
  );
}

export function Badge({ children, tone = 'neutral', title }: { children: ReactNode; tone?: 'neutral' | 'pos' | 'neg' | 'warn' | 'info' | 'demo'; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function DemoBadge() {
  return (
    <Badge tone="demo" title="Generated demo data, not a real market or account">
      DEMO
    </Badge>
  );
}

export function Panel({ title, actions, children, className, id }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; id?: string }) {
  return (
    <section className={`panel ${className ?? ''}`} aria-labelledby={id ? `${id}-title` : undefined}>
      {(title !== undefined || actions !== undefined) && (
        <header className="panel-head">
          {title !== undefined && (
            <h2 className="panel-title" id={id ? `${id}-title` : undefined}>
              {title}
            </h2>
          )}
          {actions !== undefined && <div className="panel-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}

export function EmptyState({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="empty" role="status">
      <div className="empty-icon" aria-hidden="true">
        ◇
      </div>
      <h2>{title}</h2>
      {children !== undefined && <div className="empty-text">{children}</div>}
      {actions !== undefined && <div className="empty-actions">{actions}</div>}
    </div>
  );
}

/** The words of the key screen after a 401: what happened and what to do. */
export const REFUSED_KEY = 'The server refused the API key this page was using (a wrong key, or one rotated since). Paste the current key from the api-key file of the data folder, or open the UI address strikebook serve printed.';

/**
 * A failed call with its problem; Retry when the caller can repeat it. A 401 also offers "Change key": retrying with
 * the same refused key cannot help.
 */
export function ErrorBanner({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  const keyScreen = useKeyScreen();
  const refused = error.status === 401 && keyScreen !== null;
  return (
    <div className="alert alert-error" role="alert">
      <strong>{error.title}</strong>
      {error.detail !== '' && <span> — {error.detail}</span>}
      {error.code !== '' && <code className="alert-code">{error.code}</code>}
      {refused && (
        <button type="button" className="btn btn-small btn-primary" onClick={() => keyScreen.changeKey(REFUSED_KEY)}>
          Change key
        </button>
      )}
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export function Segmented<T extends string>({ value, options, onChange, label }: { value: T; options: ReadonlyArray<{ value: T; label: string; title?: string }>; onChange: (value: T) => void; label: string }) {
  return (
    <div className="segmented" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className={option.value === value ? 'active' : ''}
          aria-pressed={option.value === value}
          title={option.title}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

export type { StatusFilter };

const STATUS_OPTIONS: ReadonlyArray<{ value: StatusFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
];

export function StatusSegmented({ value, onChange }: { value: StatusFilter; onChange: (value: StatusFilter) => void }) {
  return <Segmented label="Status" value={value} onChange={onChange} options={STATUS_OPTIONS} />;
}

/** What an answer being loaded (hooks.ts useAsync) shows until it comes: its failure with Retry, or the loading line. */
export function AsyncStatus({ state, label }: { state: { data: unknown; error: ApiError | null; reload: () => void }; label?: string }) {
  if (state.error) return <ErrorBanner error={state.error} onRetry={state.reload} />;
  return state.data === undefined ? <Loading {...(label === undefined ? {} : { label })} /> : null;
}

/** A small form in a toolbar: Enter or its button applies it in the page (the browser's own submit, a reload, never happens); `onSubmit` gets its fields. */
export function InlineForm({ onSubmit, children }: { onSubmit: (fields: FormData) => void; children: ReactNode }) {
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(new FormData(event.currentTarget));
      }}
    >
      {children}
    </form>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/** The journal is being rebuilt after a change: the figures shown are those before it (docs/journal.md §Reads during a build). */
export function UpdatingNote() {
  return (
    <span className="muted small" role="status" data-testid="journal-updating" title="The journal is being rebuilt after a change: these figures are from before it">
      updating…
    </span>
  );
}

/**
 * A page head's figures: the demo badge when they come from the demo, then the page's count or instant, small and muted,
 * then the note that the journal is being rebuilt.
 */
export function PageFigures({ demo = false, building = false, children }: { demo?: boolean; building?: boolean; children: ReactNode }) {
  return (
    <>
      {demo && <DemoBadge />}
      <span className="muted small num">{children}</span>
      {building && <UpdatingNote />}
    </>
  );
}

/** The head of every page: its h1, what sits beside the title (counts, badges), and its toolbar. */
export function PageHead({ title, meta, toolbar, children }: { title: string; meta?: ReactNode; toolbar?: ReactNode; children?: ReactNode }) {
  return (
    <header className="page-head">
      <div className="page-title">
        <h1>{title}</h1>
        {meta}
      </div>
      {toolbar !== undefined && <div className="toolbar">{toolbar}</div>}
      {children}
    </header>
  );
}

/**
 * The `<option>`s of a select, one per item: `value` gives its value (and key; the item itself when left out),
 * `label` what it shows (the value when left out), `title` its tooltip.
 */
export function Options<T>({ items, value, label, title }: { items: readonly T[] | undefined; value?: (item: T) => string | number; label?: (item: T, index: number) => ReactNode; title?: (item: T) => string }) {
  return (
    <>
      {items?.map((item, index) => {
        const v = value ? value(item) : String(item);
        return (
          <option key={v} value={v} title={title?.(item)}>
            {label ? label(item, index) : v}
          </option>
        );
      })}
    </>
  );
}

/**
 * A column of a DataTable: its header text, whether it holds numbers (right-aligned), a tooltip, and its priority on
 * narrow windows: `lo` columns go under 1100 px, `mid` ones under 700 px (styles/narrow.css), so that the key columns
 * (what, and its P&L) stay in view on a phone. The cells of such a column carry the same class (`col-lo`, `col-mid`).
 */
export interface Column {
  label: string;
  num?: boolean;
  title?: string;
  hide?: 'lo' | 'mid';
}

/** A numeric column. */
export const num = (label: string, title?: string, hide?: Column['hide']): Column => ({ label, num: true, title, hide });

/** The class of a cell of a column that narrow windows leave out (see Column). */
export function colClass(hide: Column['hide'], base = ''): string {
  return [base, hide === undefined ? '' : `col-${hide}`].filter((c) => c !== '').join(' ');
}

/** A scrollable table with one header row; the rows are its children. */
export function DataTable({ columns, testId, className = 'table', children }: { columns: ReadonlyArray<string | Column>; testId: string; className?: string; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className={className} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column, index) => {
              const c: Column = typeof column === 'string' ? { label: column } : column;
              return (
                <th key={index} className={colClass(c.hide, c.num ? 'num' : '') || undefined} title={c.title}>
                  {c.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
