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
