/**
 * The desktop shell, kept thin: one window onto the same local API and UI that `strikebook serve` offers.
 * The API server runs in this (main) process on loopback; the renderer is sandboxed and gets exactly two
 * values through the preload: the API base URL and its key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, screen, session, shell, type BrowserWindowConstructorOptions, type IpcMainEvent } from 'electron';
import { DataFolderError } from '../db/data-folder';
import { startServer, type RunningServer } from '../serve';
import { EXPORT_FOLDER_CHANNEL, SESSION_CHANNEL } from './channels';
import { exportFolderHandler } from './export-folder';
import { contentSecurityPolicy, isAppUrl } from './csp';
import { buildMenuTemplate } from './menu';
import { notifyPositionAlerts } from './notifications';
import { loadWindowState, MIN_HEIGHT, MIN_WIDTH, saveWindowState, type WindowState } from './window-state';

/** Fixed port of the API in development, so the Vite dev server can proxy /v1 to it (electron.vite.config.ts). */
export const DEV_API_PORT = Number(process.env.STRIKEBOOK_DEV_API_PORT ?? 7718);

export interface ShellState {
  server: RunningServer | null;
  window: BrowserWindow | null;
  quitting: boolean;
}

export const state: ShellState = { server: null, window: null, quitting: false };

function isDev(): boolean {
  return !app.isPackaged && typeof process.env.ELECTRON_RENDERER_URL === 'string' && process.env.ELECTRON_RENDERER_URL !== '';
}

/**
 * better-sqlite3 built for Electron's ABI by scripts/electron-native.mjs (dev) or shipped as a resource (packaged).
 * startServer hands it to both connections: the main process's and the journal worker's (out/main/journal-worker.js).
 */
export function electronNativeBinding(): string | undefined {
  const candidates = app.isPackaged
    ? [join(process.resourcesPath, 'native', 'better_sqlite3.node')]
    : [join(app.getAppPath(), '.electron-native', 'better_sqlite3.node')];
  return candidates.find((file) => existsSync(file));
}

/** What the window loads and which origin the renderer calls. */
export function rendererTarget(server: RunningServer): { loadUrl: string; apiBaseUrl: string; origins: string[] } {
  const devUrl = isDev() ? process.env.ELECTRON_RENDERER_URL : undefined;
  if (devUrl) {
    // The dev server proxies /v1 to the API, so the renderer stays same-origin (no CORS on the API).
    const origin = new URL(devUrl).origin;
    return { loadUrl: devUrl, apiBaseUrl: `${origin}/v1`, origins: [origin, server.url] };
  }
  return { loadUrl: `${server.url}/`, apiBaseUrl: server.apiBaseUrl, origins: [server.url] };
}

export function windowOptions(saved: WindowState, preloadPath: string): BrowserWindowConstructorOptions {
  return {
    ...(saved.x !== undefined && saved.y !== undefined ? { x: saved.x, y: saved.y } : {}),
    width: saved.width,
    height: saved.height,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    show: false,
    title: 'Strikebook',
    backgroundColor: '#0e1116',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  };
}

async function startApiServer(dataDir: string): Promise<RunningServer> {
  const nativeBinding = electronNativeBinding();
  const uiDir = join(app.getAppPath(), 'out', 'renderer');
  const base = { dataDir, host: '127.0.0.1', uiDir: existsSync(join(uiDir, 'index.html')) ? uiDir : null, ...(nativeBinding ? { nativeBinding } : {}) };
  if (isDev()) return startServer({ ...base, port: DEV_API_PORT });
  try {
    // The configured port (Settings, default 7717)…
    return await startServer(base);
  } catch (error) {
    // …or, when another program holds it, any free port: the window learns the port from the preload.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startServer({ ...base, port: 0 });
  }
}

function contentTypeFor(file: string): string {
  return extname(file).toLowerCase() === '.json' ? 'application/json' : 'text/csv';
}

interface ProblemLike {
  title?: string;
  detail?: string;
  errors?: Array<{ line?: number; param?: string; message?: string }>;
}

function problemText(body: ProblemLike): string {
  const lines = [body.detail ?? body.title ?? 'The server refused the file.'];
  for (const error of (body.errors ?? []).slice(0, 12)) lines.push(`${error.line !== undefined ? `line ${error.line}: ` : ''}${error.param ? `${error.param}: ` : ''}${error.message ?? ''}`);
  if ((body.errors ?? []).length > 12) lines.push(`…and ${(body.errors ?? []).length - 12} more`);
  return lines.join('\n');
}

/**
 * The File menu's imports go through the same /v1 API the page uses (the renderer has no file system access);
 * the window then shows the result on the matching page.
 */
export async function importFiles(kind: 'broker' | 'chain'): Promise<void> {
  const server = state.server;
  const win = state.window;
  if (!server || !win) return;
  const result = await dialog.showOpenDialog(win, {
    title: kind === 'broker' ? 'Import broker CSV' : 'Import option chain',
    properties: ['openFile', 'multiSelections'],
    filters: kind === 'broker' ? [{ name: 'CSV', extensions: ['csv', 'txt'] }] : [{ name: 'Chain snapshot', extensions: ['csv', 'json'] }],
  });
  if (result.canceled || result.filePaths.length === 0) return;
  const summaries: string[] = [];
  let lastSymbol: string | null = null;
  for (const file of result.filePaths) {
    const name = basename(file);
    const query = kind === 'broker' ? `imports?filename=${encodeURIComponent(name.slice(0, 255))}` : 'chains';
    let response: Response;
    try {
      response = await fetch(`${server.apiBaseUrl}/${query}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': contentTypeFor(file) },
        body: readFileSync(file),
      });
    } catch (error) {
      dialog.showErrorBox(`Could not import ${name}`, error instanceof Error ? error.message : String(error));
      continue;
    }
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) {
      dialog.showErrorBox(`Could not import ${name}`, problemText(body as ProblemLike));
      continue;
    }
    if (kind === 'broker') summaries.push(`${name}: ${String(body.imported)} imported, ${String(body.duplicates)} duplicates (${String(body.broker)})`);
    else {
      lastSymbol = typeof body.symbol === 'string' ? body.symbol : lastSymbol;
      summaries.push(`${name}: ${String(body.symbol)}, ${String(body.contracts)} contracts${body.stored === false ? ' (already stored)' : ''}`);
    }
  }
  if (summaries.length === 0) return;
  navigateTo(kind === 'broker' ? 'import' : lastSymbol ? `exposure?symbol=${encodeURIComponent(lastSymbol)}` : 'exposure');
  await dialog.showMessageBox(win, { type: 'info', message: 'Import finished', detail: summaries.join('\n') });
}

/** Hash routes of the renderer (`#/journal`). */
export function navigateTo(route: string): void {
  const win = state.window;
  if (!win || win.isDestroyed()) return;
  void win.webContents.executeJavaScript(`window.location.hash = ${JSON.stringify(`#/${route}`)}; undefined`);
}

export function installMenu(): void {
  const template = buildMenuTemplate(
    {
      importBrokerCsv: () => void importFiles('broker'),
      importChain: () => void importFiles('chain'),
      openDataFolder: () => {
        if (state.server) void shell.openPath(state.server.dataDir);
      },
      copyApiKey: () => {
        if (state.server) clipboard.writeText(state.server.apiKey);
      },
      navigate: (page) => navigateTo(page),
    },
    { isDev: isDev(), isMac: process.platform === 'darwin', appName: app.getName() },
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function hardenSession(origins: string[], csp: string): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    const headers = { ...details.responseHeaders };
    if (isAppUrl(details.url, origins)) {
      for (const key of Object.keys(headers)) if (key.toLowerCase() === 'content-security-policy') delete headers[key];
      headers['Content-Security-Policy'] = [csp];
    }
    callback({ responseHeaders: headers });
  });
  // No camera, notifications, geolocation…: the app asks for nothing.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
}

export function createWindow(server: RunningServer): BrowserWindow {
  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const saved = loadWindowState(
    stateFile,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  const target = rendererTarget(server);
  const preload = join(dirname(fileURLToPath(import.meta.url)), '../preload/preload.cjs');
  const win = new BrowserWindow(windowOptions(saved, preload));
  state.window = win;
  if (saved.maximized) win.maximize();

  const persist = () => {
    if (win.isDestroyed()) return;
    const bounds = win.getNormalBounds();
    try {
      saveWindowState(stateFile, { ...bounds, maximized: win.isMaximized() });
    } catch {
      // Losing the window position is not worth an error dialog.
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const persistSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(persist, 400);
  };
  win.on('resize', persistSoon);
  win.on('move', persistSoon);
  win.on('close', () => {
    clearTimeout(timer);
    persist();
  });
  win.on('closed', () => {
    if (state.window === win) state.window = null;
  });
  win.once('ready-to-show', () => win.show());

  // Links to the outside open in the browser; the window itself never leaves the local UI.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url) && !isAppUrl(url, target.origins)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, target.origins)) event.preventDefault();
  });
  void win.loadURL(target.loadUrl);
  return win;
}

export async function bootstrap(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', () => {
    const win = state.window;
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  });

  await app.whenReady();
  const dataDir = app.getPath('userData');
  let server: RunningServer;
  try {
    server = await startApiServer(dataDir);
  } catch (error) {
    if (error instanceof DataFolderError) {
      // A damaged database, a read-only folder, a newer schema: the message says which file and what to do.
      dialog.showErrorBox('Strikebook cannot open its data', error.message);
      app.exit(error.exitCode);
      return;
    }
    dialog.showErrorBox('Strikebook could not start', `The local server failed to start in ${dataDir}.\n\n${error instanceof Error ? error.message : String(error)}`);
    app.exit(1);
    return;
  }
  state.server = server;
  notifyPositionAlerts(server.ctx.exposure, () => server.ctx.settings.notifyPositionAlerts, () => state.window?.show());
  const target = rendererTarget(server);
  hardenSession(target.origins, contentSecurityPolicy(server.url, isDev() ? process.env.ELECTRON_RENDERER_URL : undefined));

  // The preload asks once, synchronously, for its two values; only our own window gets an answer.
  ipcMain.on(SESSION_CHANNEL, (event: IpcMainEvent) => {
    const win = state.window;
    const live = state.server;
    if (!win || !live || event.sender !== win.webContents) {
      event.returnValue = null;
      return;
    }
    event.returnValue = { apiBaseUrl: rendererTarget(live).apiBaseUrl, token: live.apiKey };
  });

  ipcMain.handle(EXPORT_FOLDER_CHANNEL, exportFolderHandler(() => state));

  installMenu();
  createWindow(server);

  app.on('activate', () => {
    if (!state.window && state.server) createWindow(state.server);
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Quit waits for the server to close the database (WAL checkpoint) before the process ends.
  app.on('before-quit', (event) => {
    if (state.quitting) return;
    const running = state.server;
    if (!running) return;
    event.preventDefault();
    state.quitting = true;
    running
      .close()
      .catch(() => undefined)
      .finally(() => {
        state.server = null;
        app.quit();
      });
  });
}
