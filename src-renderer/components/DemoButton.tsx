import { useState } from 'react';
import { ApiError } from '../api/client';
import { navigate, useApi } from '../hooks';

/** "Load demo data" from the empty states: POST /v1/demo, then let the page reload. */
export function DemoButton({ onLoaded, className = 'btn' }: { onLoaded: () => void; className?: string }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        className={className}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          api
            .call('POST /demo')
            .then(() => onLoaded())
            .catch((err: unknown) => setError(err instanceof ApiError ? err.message : String(err)))
            .finally(() => setBusy(false));
        }}
      >
        {busy ? 'Loading demo…' : 'Load demo data'}
      </button>
      {error !== null && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** The actions of an empty page: import (a broker file unless `what` says else), or load the demo. */
export function ImportOrDemo({ onLoaded, what = 'a broker file' }: { onLoaded: () => void; what?: string }) {
  return (
    <>
      <button type="button" className="btn btn-primary" onClick={() => navigate('import')}>
        Import {what}
      </button>
      <DemoButton onLoaded={onLoaded} />
    </>
  );
}
