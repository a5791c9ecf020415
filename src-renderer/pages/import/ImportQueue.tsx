import { fmtCount, fmtInt } from '../../format';
import type { Queued, UploadProgress } from './upload';

/** The files waiting to be imported, each with its first lines, and the button that imports them. */
export function ImportQueue({ queue, busy, onRemove, onImport }: { queue: readonly Queued[]; busy: boolean; onRemove: (key: string) => void; onImport: () => void }) {
  return (
    <div className="queue" data-testid="import-queue">
      {queue.map((item) => (
        <div className="queue-item" key={item.key}>
          <div className="queue-head">
            <strong>{item.file.name}</strong>
            <span className="muted small num">{fmtInt(Math.ceil(item.file.size / 1024))} KB</span>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => onRemove(item.key)} aria-label={`Remove ${item.file.name}`} disabled={busy}>
              Remove
            </button>
          </div>
          <pre className="preview" aria-label={`First lines of ${item.file.name}`}>
            {item.preview.map((line, i) => (
              <span key={i}>
                <span className="preview-line">{i + 1}</span>
                {line}
                {'\n'}
              </span>
            ))}
          </pre>
        </div>
      ))}
      <div className="queue-actions">
        <button type="button" className="btn btn-primary" onClick={onImport} disabled={busy}>
          Import {fmtCount(queue.length, 'file')}
        </button>
      </div>
    </div>
  );
}

/** The upload under way: which file of how many, and how far. */
export function ImportProgress({ progress }: { progress: UploadProgress }) {
  return (
    <div className="progress-block" aria-live="polite">
      <div className="small">
        Uploading {progress.name} ({progress.index + 1} of {progress.count}) — {Math.round(progress.fraction * 100)}%
      </div>
      <progress className="progress" max={1} value={progress.fraction} data-testid="import-progress" />
    </div>
  );
}
