/**
 * A chain file that lacks what the server needs (a yfinance dump has no spot and no time; a generic file may have no
 * symbol): the server's problem names the missing values (`param` spot, quoteTime, symbol, without a line); the
 * form asks for them in place and sends the file again with them as query parameters (POST /v1/chains).
 */
import { useState, type FormEvent } from 'react';
import type { ApiError} from '../../api/client';
import { type ChainPostResponseT } from '../../api/client';
import { asApiError, useApi } from '../../hooks';
import { contentTypeOf } from './upload';

export const CHAIN_VALUES = ['symbol', 'spot', 'quoteTime'] as const;
export type ChainValue = (typeof CHAIN_VALUES)[number];

/** The values a failed chain upload names as missing or wrong for the whole file (no line): what the form asks for. */
export function missingChainValues(error: ApiError): ChainValue[] {
  const named = new Set(error.errors.filter((e) => e.line === undefined || e.line === null).map((e) => e.param));
  return CHAIN_VALUES.filter((value) => named.has(value));
}

const FIELDS: Record<ChainValue, { label: string; hint: string }> = {
  symbol: { label: 'Symbol', hint: 'The underlying, e.g. SPY' },
  spot: { label: 'Spot', hint: 'The underlying’s price when the chain was taken' },
  quoteTime: { label: 'Quote time (New York)', hint: 'When the chain was taken; leave empty to keep the file’s' },
};

export function ChainRetry({ file, missing, onStored, onFailed }: { file: File; missing: readonly ChainValue[]; onStored: (result: ChainPostResponseT) => void; onFailed: (error: ApiError) => void }) {
  const api = useApi();
  const [values, setValues] = useState<Record<ChainValue, string>>({ symbol: '', spot: '', quoteTime: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const needed = new Set(missing);
  // A file without spot (a yfinance dump) has no time of its own either: its newest trade stands in, so the time is offered.
  const shown = CHAIN_VALUES.filter((v) => needed.has(v) || (v === 'quoteTime' && needed.has('spot')));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const spot = values.spot.trim() === '' ? undefined : Number(values.spot.replace(/,/g, ''));
    if (spot !== undefined && !(Number.isFinite(spot) && spot > 0)) {
      setProblem(`Spot must be a price above 0, not “${values.spot}”.`);
      return;
    }
    const missingNow = missing.filter((v) => (v === 'spot' ? spot === undefined : values[v].trim() === ''));
    if (missingNow.length > 0) {
      setProblem(`Give ${missingNow.map((v) => FIELDS[v].label.toLowerCase()).join(' and ')} to import this file.`);
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const symbol = values.symbol.trim().toUpperCase();
      const quoteTime = values.quoteTime.trim();
      const result = await api.upload('POST /chains', { query: { format: 'auto', ...(symbol !== '' ? { symbol } : {}), ...(spot !== undefined ? { spot } : {}), ...(quoteTime !== '' ? { quoteTime } : {}) } }, file, { contentType: contentTypeOf(file) });
      onStored(result);
    } catch (error) {
      onFailed(asApiError(error, 'Upload failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="chain-retry" onSubmit={(event) => void submit(event)} data-testid="chain-retry" noValidate>
      <p className="small">The file does not say everything a snapshot needs. Give what is missing and import it again:</p>
      <div className="chain-retry-fields">
        {shown.map((v, index) => (
          <label key={v} className="field">
            <span>
              {FIELDS[v].label}
              {needed.has(v) ? ' (needed)' : ' (optional)'}
            </span>
            {v === 'quoteTime' ? (
              <input type="datetime-local" value={values.quoteTime} onChange={(e) => {
                  setValues({ ...values, quoteTime: e.target.value });
                  setProblem(null);
                }} autoFocus={index === 0} aria-required={needed.has(v)} />
            ) : (
              <input
                type="text"
                inputMode={v === 'spot' ? 'decimal' : 'text'}
                value={values[v]}
                onChange={(e) => {
                  setValues({ ...values, [v]: e.target.value });
                  setProblem(null);
                }}
                placeholder={v === 'spot' ? '589.25' : 'SPY'}
                autoFocus={index === 0}
                aria-required={needed.has(v)}
                maxLength={v === 'symbol' ? 16 : 24}
                spellCheck={false}
              />
            )}
            <span className="muted small">{FIELDS[v].hint}</span>
          </label>
        ))}
      </div>
      {problem !== null && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={busy}>
          {busy ? 'Importing…' : `Import ${file.name}`}
        </button>
      </div>
    </form>
  );
}
