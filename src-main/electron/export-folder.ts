/**
 * Settings → Export for research in the desktop app: the renderer asks (through the preload) for a folder, the
 * system's dialog chooses it here, and the server is told to allow that folder (ExportJobs.grantFolder). The page
 * only ever gets an id for it, so no HTTP request can name a path for the server to write into.
 */
import { dialog, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { RunningServer } from '../serve';

export interface ExportFolderShell {
  window: BrowserWindow | null;
  server: RunningServer | null;
}

/** The IPC handler of EXPORT_FOLDER_CHANNEL: our own window only; null when the dialog is cancelled. */
export function exportFolderHandler(shell: () => ExportFolderShell): (event: IpcMainInvokeEvent) => Promise<{ folder: string; path: string } | null> {
  return async (event) => {
    const { window: win, server } = shell();
    if (win === null || server === null || event.sender !== win.webContents) return null;
    const result = await dialog.showOpenDialog(win, { title: 'Export for research', buttonLabel: 'Export here', properties: ['openDirectory', 'createDirectory'] });
    const path = result.filePaths[0];
    if (result.canceled || path === undefined) return null;
    return server.ctx.exports.grantFolder(path);
  };
}
