/**
 * Runs sandboxed before the page. It exposes exactly `{ apiBaseUrl, token }` as `window.strikebook` and
 * nothing else: no ipcRenderer, no Node. The values come from the main process over one synchronous IPC call
 * (not the command line, where other processes could read the key).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { SESSION_CHANNEL } from './channels';

export interface StrikebookBridge {
  readonly apiBaseUrl: string;
  readonly token: string;
}

export function readSession(send: (channel: string) => unknown): StrikebookBridge | null {
  const value = send(SESSION_CHANNEL);
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.apiBaseUrl !== 'string' || typeof record.token !== 'string') return null;
  return Object.freeze({ apiBaseUrl: record.apiBaseUrl, token: record.token });
}

const session = readSession((channel) => ipcRenderer.sendSync(channel));
if (session) contextBridge.exposeInMainWorld('strikebook', session);
