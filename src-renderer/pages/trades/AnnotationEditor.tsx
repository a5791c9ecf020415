/** The note and tags of a trade or a campaign (docs/journal.md §Annotations), edited in place. */
import { useEffect, useState } from 'react';
import { ANNOTATIONS, type AnnotatedKind, type ApiError } from '../../api/client';
import { AsyncStatus, ErrorBanner, Panel } from '../../components/ui';
import { useApi, useAsync } from '../../hooks';

/** Tags as typed: commas or new lines between them. */
function parseTags(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** A note and tags of a trade or a campaign, edited in place (PUT …/annotation). */
export function AnnotationEditor({ kind, id, note: storedNote, tags: storedTags, onSaved, help }: { kind: AnnotatedKind; id: string; note: string; tags: readonly string[]; onSaved: () => void; help?: string }) {
  const api = useApi();
  const [note, setNote] = useState(storedNote);
  const [tags, setTags] = useState(storedTags.join(', '));
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  // What is stored shows again when it changes (a reload after a save keeps the "Saved" word); another item starts afresh.
  const storedTagsText = storedTags.join(', ');
  useEffect(() => {
    setNote(storedNote);
    setTags(storedTagsText);
  }, [id, storedNote, storedTagsText]);
  useEffect(() => {
    setSaved(false);
    setError(null);
  }, [id]);
  return (
    <form
      className="annotation"
      data-testid={kind === 'trades' ? 'trade-annotation' : 'campaign-annotation'}
      onSubmit={(event) => {
        event.preventDefault();
        setSaving(true);
        api
          .call(ANNOTATIONS[kind].write, { params: { id }, body: { note, tags: parseTags(tags) } })
          .then(() => {
            setError(null);
            setSaved(true);
            onSaved();
          })
          .catch((e: unknown) => setError(e as ApiError))
          .finally(() => setSaving(false));
      }}
    >
      <label className="field">
        <span>Note</span>
        <textarea value={note} maxLength={10_000} rows={3} onChange={(e) => (setNote(e.target.value), setSaved(false))} placeholder="Why you took it, how you managed it" />
      </label>
      <label className="field">
        <span>Tags</span>
        <input type="text" value={tags} onChange={(e) => (setTags(e.target.value), setSaved(false))} placeholder="earnings, wheel" aria-describedby={`${kind}-tags-help`} />
      </label>
      <p id={`${kind}-tags-help`} className="muted small">
        {help ?? 'Separated by commas; up to 20 of 40 characters, kept in lower case. Notes stay with the trade when its file is undone and imported again.'}
      </p>
      {error && <ErrorBanner error={error} />}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-small" disabled={saving}>
          {saving ? 'Saving…' : 'Save note'}
        </button>
        {saved && <span className="muted small" role="status">Saved</span>}
      </div>
    </form>
  );
}

/** A campaign's note and tags on its page (GET, then the editor). */
export function CampaignNote({ id }: { id: string }) {
  const api = useApi();
  const stored = useAsync((signal) => api.call(ANNOTATIONS.campaigns.read, { params: { id } }, { signal }), [api, id]);
  return (
    <Panel title="Note and tags">
      <AsyncStatus state={stored} label="Loading the note…" />
      {stored.data && (
        <AnnotationEditor
          kind="campaigns"
          id={id}
          note={stored.data.note}
          tags={stored.data.tags}
          onSaved={stored.reload}
          help="Separated by commas; up to 20 of 40 characters, kept in lower case. Kept with the campaign when its files are undone and imported again."
        />
      )}
    </Panel>
  );
}
