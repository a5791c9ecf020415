/** The Import page's uploads: queued files with their first lines, and one upload after the other with progress. */
import type { BrokerId } from '../../../src-shared/api/constants';

/** `broker=` of an import: auto-detection, a built-in broker, or a saved format (`custom:<id>`). */
export type ImporterChoice = 'auto' | BrokerId | `custom:${string}`;
import type { ImportReport } from '../../../src-shared/api/schemas';
import type { ApiError} from '../../api/client';
import { type ApiClient, type ChainPostResponseT } from '../../api/client';
import { asApiError } from '../../hooks';

export type ImportKind = 'broker' | 'chain';

export interface Queued {
  key: string;
  file: File;
  preview: string[];
}

export type Outcome =
  | { kind: 'broker'; filename: string; report: ImportReport }
  | { kind: 'chain'; filename: string; result: ChainPostResponseT }
  /**
   * `file`: the file itself, so that an unrecognised header can be mapped to a format of its own, or a chain file
   * sent again with the values it lacks; `target`: what it was imported as.
   */
  | { kind: 'error'; filename: string; error: ApiError; file: File; target: ImportKind };

export interface UploadProgress {
  name: string;
  fraction: number;
  index: number;
  count: number;
}

export function contentTypeOf(file: File): string {
  const name = file.name.toLowerCase();
  if (name.endsWith('.json')) return 'application/json';
  if (file.type === 'application/json') return 'application/json';
  return 'text/csv';
}

async function previewOf(file: File): Promise<string[]> {
  const text = await file.slice(0, 4096).text();
  return text.replace(/^\uFEFF/, '').split(/\r?\n/).slice(0, 6).map((line) => (line.length > 160 ? `${line.slice(0, 160)}…` : line));
}

/** Files as queue items, each with its first six lines (cut at 160 characters) for the preview. */
export function queueFiles(files: FileList | File[]): Promise<Queued[]> {
  const list = Array.from(files);
  return Promise.all(list.map(async (file, i) => ({ key: `${file.name}-${file.size}-${file.lastModified}-${i}-${Date.now()}`, file, preview: await previewOf(file) })));
}

/**
 * Uploads the queued files one after the other (an import is one database transaction each). Reports the
 * progress of each upload and the outcomes so far after each file; a failed file does not stop the others.
 */
export async function uploadAll(
  api: ApiClient,
  items: readonly Queued[],
  target: { kind: ImportKind; broker: ImporterChoice; account: string },
  onProgress: (progress: UploadProgress) => void,
  onOutcomes: (outcomes: Outcome[]) => void,
): Promise<void> {
  const results: Outcome[] = [];
  for (const [index, item] of items.entries()) {
    onProgress({ name: item.file.name, fraction: 0, index, count: items.length });
    const upload = { contentType: contentTypeOf(item.file), onProgress: (fraction: number) => onProgress({ name: item.file.name, fraction, index, count: items.length }) };
    try {
      if (target.kind === 'broker') {
        const account = target.account.trim();
        const report = await api.upload('POST /imports', { query: { broker: target.broker, filename: item.file.name.slice(0, 255), ...(account !== '' ? { account } : {}) } }, item.file, upload);
        results.push({ kind: 'broker', filename: item.file.name, report });
      } else {
        const result = await api.upload('POST /chains', { query: { format: 'auto' } }, item.file, upload);
        results.push({ kind: 'chain', filename: item.file.name, result });
      }
    } catch (error) {
      results.push({ kind: 'error', filename: item.file.name, file: item.file, target: target.kind, error: asApiError(error, 'Upload failed') });
    }
    onOutcomes([...results]);
  }
}
