import type { ReactNode } from 'react';
import type { ApiError } from '../api/client';
import { fmtMoney, signClass } from '../format';

export function Money({ value, currency = 'USD', signed = true, colored = true }: { value: number; currency?: string; signed?: boolean; colored?: boolean }) {
  return <span className={`num ${colored ? signClass(value) : ''}`}>{fmtMoney(value, currency, signed)}</span>;
}

export function Stat({ label, value, sub, tone, title, testId }: { label: string; value: ReactNode; sub?: ReactNode; tone?: string; title?: string; testId?: string }) {
  return (
    <div className={`stat ${tone ?? ''}`} title={title} data-testid={testId}>
      <div className="stat-label">{label}</div>
      <div className="stat-value num">{value}</div>
      {sub !== undefined && <div className="stat-sub">{sub}</div>}
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

export function ErrorBanner({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      <strong>{error.title}</strong>
      {error.detail !== '' && <span> — {error.detail}</span>}
      {error.code !== '' && <code className="alert-code">{error.code}</code>}
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

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
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

/** A column of a DataTable: its header text, whether it holds numbers (right-aligned), and a tooltip. */
export interface Column {
  label: string;
  num?: boolean;
  title?: string;
}

/** A numeric column. */
export const num = (label: string, title?: string): Column => ({ label, num: true, title });

/** A scrollable table with one header row; the rows are its children. */
export function DataTable({ columns, testId, className = 'table', children }: { columns: ReadonlyArray<string | Column>; testId: string; className?: string; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className={className} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column, index) => {
              const c = typeof column === 'string' ? { label: column } : column;
              return (
                <th key={index} className={c.num ? 'num' : undefined} title={c.title}>
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
