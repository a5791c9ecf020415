/**
 * Runs sandboxed before the page. It exposes exactly `{ apiBaseUrl, token, chooseExportFolder }` as
 * `window.strikebook` and nothing else: no ipcRenderer, no Node. The values come from the main process over one
 * synchronous IPC call (not the command line, where other processes could read the key); chooseExportFolder opens
 * the system's folder dialog for Settings → Export for research and gives the page a grant id, never a way to name
 * a path itself.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { EXPORT_FOLDER_CHANNEL, SESSION_CHANNEL } from './channels';

export interface StrikebookBridge {
  readonly apiBaseUrl: string;
  readonly token: string;
  readonly chooseExportFolder: () => Promise<{ folder: string; path: string } | null>;
}

/** The dialog's answer as main sent it, checked: a grant id and its path, or null. */
export function exportFolderAnswer(value: unknown): { folder: string; path: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  return typeof record.folder === 'string' && typeof record.path === 'string' ? { folder: record.folder, path: record.path } : null;
}

export function readSession(send: (channel: string) => unknown, invoke: (channel: string) => Promise<unknown> = () => Promise.resolve(null)): StrikebookBridge | null {
  const value = send(SESSION_CHANNEL);
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.apiBaseUrl !== 'string' || typeof record.token !== 'string') return null;
  return Object.freeze({
    apiBaseUrl: record.apiBaseUrl,
    token: record.token,
    chooseExportFolder: async () => exportFolderAnswer(await invoke(EXPORT_FOLDER_CHANNEL)),
  });
}

const session = readSession(
  (channel) => ipcRenderer.sendSync(channel),
  (channel) => ipcRenderer.invoke(channel),
);
if (session) contextBridge.exposeInMainWorld('strikebook', session);
