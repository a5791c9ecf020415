import { useRef, useState, type DragEvent } from 'react';
import type { ImportKind } from './upload';

/** Drop files here or choose them: broker CSVs, or chain files (CSV or JSON). */
export function DropZone({ kind, onFiles }: { kind: ImportKind; onFiles: (files: FileList) => void }) {
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length > 0) onFiles(event.dataTransfer.files);
  };
  return (
    <div
      className={`dropzone ${dragging ? 'dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="dropzone"
    >
      <div className="dropzone-icon" aria-hidden="true">
        ⇪
      </div>
      <p>
        Drop {kind === 'broker' ? 'broker CSV files' : 'chain files'} here, or{' '}
        <button type="button" className="btn btn-primary" onClick={() => inputRef.current?.click()}>
          Choose files…
        </button>
      </p>
      <input
        ref={inputRef}
        type="file"
        multiple
        accept={kind === 'broker' ? '.csv,.txt,text/csv' : '.csv,.json,text/csv,application/json'}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="file-input"
        onChange={(e) => {
          if (e.target.files && e.target.files.length > 0) onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}
