/**
 * The Electron shell with `electron` and the server mocked (Electron cannot be launched on the build machines):
 * single instance, secure window options, the menu, the preload's two values, CSP, window-state memory and a
 * quit that waits for the server to close.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';

type Handler = (...args: unknown[]) => unknown;

const h = vi.hoisted(() => {
  const appHandlers = new Map<string, Handler[]>();
  const ipcHandlers = new Map<string, Handler>();
  const windows: Array<{ options: Record<string, unknown>; loaded: string[]; webContents: Record<string, unknown> }> = [];
  const exposed: Array<{ key: string; value: unknown }> = [];
  let menuTemplate: unknown[] = [];
  let onHeaders: Handler | null = null;
  const serverClose = { calls: 0, resolve: null as null | (() => void) };
  const state = { lock: true, quitCalls: 0, userData: '', appPath: '/nonexistent-app' };
  return { appHandlers, ipcHandlers, windows, exposed, menuTemplate, onHeaders, serverClose, state, setMenu: (t: unknown[]) => (menuTemplate = t), getMenu: () => menuTemplate, setHeaders: (f: Handler) => (onHeaders = f), getHeaders: () => onHeaders };
});

vi.mock('electron', () => {
  class BrowserWindow {
    webContents: Record<string, unknown>;
    options: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      this.webContents = { setWindowOpenHandler: vi.fn(), on: vi.fn(), executeJavaScript: vi.fn(async () => undefined) };
      h.windows.push({ options, loaded: [], webContents: this.webContents });
    }
    loadURL(url: string) {
      h.windows[h.windows.length - 1]?.loaded.push(url);
      return Promise.resolve();
    }
    on() {}
    once() {}
    maximize() {}
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    show() {}
    focus() {}
    getNormalBounds() {
      return { x: 10, y: 20, width: 1200, height: 800 };
    }
    isMaximized() {
      return false;
    }
  }
  const app = {
    isPackaged: false,
    requestSingleInstanceLock: vi.fn(() => h.state.lock),
    quit: vi.fn(() => {
      h.state.quitCalls += 1;
      for (const handler of h.appHandlers.get('before-quit') ?? []) handler({ preventDefault: vi.fn() });
    }),
    exit: vi.fn(),
    on: vi.fn((event: string, handler: Handler) => {
      h.appHandlers.set(event, [...(h.appHandlers.get(event) ?? []), handler]);
    }),
    whenReady: vi.fn(async () => undefined),
    getPath: vi.fn(() => h.state.userData),
    getAppPath: vi.fn(() => h.state.appPath),
    getName: vi.fn(() => 'Strikebook'),
  };
  return {
    app,
    BrowserWindow,
    Menu: { buildFromTemplate: vi.fn((t: unknown[]) => (h.setMenu(t), { t })), setApplicationMenu: vi.fn() },
    ipcMain: { on: vi.fn((channel: string, handler: Handler) => h.ipcHandlers.set(channel, handler)), handle: vi.fn((channel: string, handler: Handler) => h.ipcHandlers.set(channel, handler)) },
    ipcRenderer: {
      sendSync: vi.fn(() => ({ apiBaseUrl: 'http://127.0.0.1:7717/v1', token: 'sb_test', extra: 'must not leak' })),
      invoke: vi.fn(async () => ({ folder: 'grant1', path: '/home/me/research', extra: 'must not leak' })),
    },
    contextBridge: { exposeInMainWorld: vi.fn((key: string, value: unknown) => h.exposed.push({ key, value })) },
    screen: { getAllDisplays: vi.fn(() => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]) },
    session: { defaultSession: { webRequest: { onHeadersReceived: vi.fn((f: Handler) => h.setHeaders(f)) }, setPermissionRequestHandler: vi.fn() } },
    shell: { openPath: vi.fn(async () => ''), openExternal: vi.fn(async () => undefined) },
    clipboard: { writeText: vi.fn() },
    Notification: Object.assign(vi.fn(), { isSupported: () => false }),
    dialog: { showErrorBox: vi.fn(), showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] })), showMessageBox: vi.fn(async () => ({ response: 0 })) },
  };
});

vi.mock('../../../../src-main/serve', () => ({
  startServer: vi.fn(async (options: { port?: number; dataDir: string }) => ({
    url: 'http://127.0.0.1:7717',
    apiBaseUrl: 'http://127.0.0.1:7717/v1',
    uiUrl: null,
    port: options.port ?? 7717,
    apiKey: 'sb_test_key',
    keyFilePath: join(options.dataDir, 'api-key'),
    dataDir: options.dataDir,
    ctx: { exports: { grantFolder: vi.fn((path: string) => ({ folder: 'grant1', path })) }, exposure: { onEvent: vi.fn(() => () => undefined) }, settings: { notifyPositionAlerts: true } },
    close: vi.fn(
      () =>
        new Promise<void>((resolve) => {
          h.serverClose.calls += 1;
          h.serverClose.resolve = resolve;
        }),
    ),
  })),
}));

function labels(items: MenuItemConstructorOptions[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.label) out.push(item.label);
    if (item.role) out.push(`role:${item.role}`);
    if (Array.isArray(item.submenu)) out.push(...labels(item.submenu));
  }
  return out;
}

describe('electron main', () => {
  beforeEach(() => {
    vi.resetModules();
    // Each it counts its own calls (startServer, the dialogs, the clipboard): a module reset keeps the mocks' history.
    vi.clearAllMocks();
    h.appHandlers.clear();
    h.ipcHandlers.clear();
    h.windows.length = 0;
    h.exposed.length = 0;
    h.serverClose.calls = 0;
    h.state.lock = true;
    h.state.quitCalls = 0;
    h.state.userData = mkdtempSync(join(tmpdir(), 'sb-electron-'));
    h.state.appPath = '/nonexistent-app';
    delete process.env.ELECTRON_RENDERER_URL;
  });

  it('a second instance quits at once and starts no server or window', async () => {
    h.state.lock = false;
    const { bootstrap, state } = await import('../../../../src-main/electron/app');
    const { startServer } = await import('../../../../src-main/serve');
    await bootstrap();
    expect(h.state.quitCalls, 'quits when the single-instance lock is held elsewhere').toBe(1);
    expect(vi.mocked(startServer), 'no second server on the same data folder').not.toHaveBeenCalled();
    expect(h.windows.length).toBe(0);
    expect(state.server).toBeNull();
  });

  it('starts the server on loopback in userData, opens a locked-down window onto it', async () => {
    const { bootstrap } = await import('../../../../src-main/electron/app');
    const { startServer } = await import('../../../../src-main/serve');
    await bootstrap();
    const call = vi.mocked(startServer).mock.calls[0]?.[0];
    expect(call?.dataDir, 'data in app.getPath("userData")').toBe(h.state.userData);
    expect(call?.host, 'loopback only').toBe('127.0.0.1');
    expect(h.windows.length).toBe(1);
    const prefs = h.windows[0]?.options.webPreferences as Record<string, unknown>;
    expect(prefs.contextIsolation, 'contextIsolation on').toBe(true);
    expect(prefs.sandbox, 'sandbox on').toBe(true);
    expect(prefs.nodeIntegration, 'nodeIntegration off').toBe(false);
    expect(String(prefs.preload)).toMatch(/preload[\\/]preload\.cjs$/);
    expect(h.windows[0]?.loaded, 'the window loads the UI from the local server (same origin as /v1)').toEqual(['http://127.0.0.1:7717/']);
  });

  it('hands its Electron build of better-sqlite3 to the server (which opens the database and the journal worker with it)', async () => {
    h.state.appPath = mkdtempSync(join(tmpdir(), 'sb-app-'));
    const binding = join(h.state.appPath, '.electron-native', 'better_sqlite3.node');
    mkdirSync(dirname(binding), { recursive: true });
    writeFileSync(binding, '');
    const { bootstrap } = await import('../../../../src-main/electron/app');
    const { startServer } = await import('../../../../src-main/serve');
    await bootstrap();
    expect(vi.mocked(startServer).mock.calls.at(-1)?.[0]).toMatchObject({ nativeBinding: binding });
  });

  it('a damaged database or an unwritable data folder: one dialog with the message, exit status 3, no window', async () => {
    const { DataFolderError } = await import('../../../../src-main/db/data-folder');
    const { bootstrap } = await import('../../../../src-main/electron/app');
    const { startServer } = await import('../../../../src-main/serve');
    const { app, dialog } = await import('electron');
    const message = `The database ${join(h.state.userData, 'strikebook.db')} is damaged (file is not a database). Strikebook stopped and did not change it.`;
    vi.mocked(startServer).mockRejectedValueOnce(new DataFolderError(message, join(h.state.userData, 'strikebook.db')));
    await bootstrap();
    expect(vi.mocked(dialog.showErrorBox).mock.calls.at(-1)).toEqual(['Strikebook cannot open its data', message]);
    expect(vi.mocked(app.exit)).toHaveBeenCalledWith(3);
    expect(h.windows.length).toBe(0);
  });

  it('answers the preload only for its own window, with exactly base URL and key', async () => {
    const { bootstrap } = await import('../../../../src-main/electron/app');
    await bootstrap();
    const handler = h.ipcHandlers.get('strikebook:session');
    expect(handler).toBeDefined();
    const own = { sender: h.windows[0]?.webContents, returnValue: undefined as unknown };
    handler?.(own);
    expect(own.returnValue).toEqual({ apiBaseUrl: 'http://127.0.0.1:7717/v1', token: 'sb_test_key' });
    const stranger = { sender: {}, returnValue: undefined as unknown };
    handler?.(stranger);
    expect(stranger.returnValue, 'another webContents gets nothing').toBeNull();
  });

  it('Export for research: the system dialog chooses a folder for its own window only, and the server grants it', async () => {
    const { bootstrap, state } = await import('../../../../src-main/electron/app');
    const { dialog } = await import('electron');
    await bootstrap();
    const handler = h.ipcHandlers.get('strikebook:choose-export-folder');
    expect(handler).toBeDefined();
    const own = { sender: h.windows[0]?.webContents };
    vi.mocked(dialog.showOpenDialog).mockResolvedValueOnce({ canceled: false, filePaths: ['/home/me/research'] });
    expect(await handler?.(own)).toEqual({ folder: 'grant1', path: '/home/me/research' });
    const call: unknown[] = vi.mocked(dialog.showOpenDialog).mock.calls.at(-1) ?? [];
    expect(call[1], 'a folder, which the dialog may create').toMatchObject({ properties: ['openDirectory', 'createDirectory'] });
    const grant = (state.server as unknown as { ctx: { exports: { grantFolder: ReturnType<typeof vi.fn> } } }).ctx.exports.grantFolder;
    expect(grant).toHaveBeenCalledWith('/home/me/research');
    vi.mocked(dialog.showOpenDialog).mockResolvedValueOnce({ canceled: true, filePaths: [] });
    expect(await handler?.(own), 'cancelled').toBeNull();
    const calls = vi.mocked(dialog.showOpenDialog).mock.calls.length;
    expect(await handler?.({ sender: {} }), 'another webContents gets nothing').toBeNull();
    expect(vi.mocked(dialog.showOpenDialog).mock.calls.length, 'and no dialog').toBe(calls);
  });

  it('sets a CSP on the app origin that only connects to the loopback API', async () => {
    const { bootstrap } = await import('../../../../src-main/electron/app');
    await bootstrap();
    const onHeaders = h.getHeaders();
    let result: { responseHeaders: Record<string, string[]> } | undefined;
    onHeaders?.({ url: 'http://127.0.0.1:7717/', responseHeaders: { 'content-security-policy': ['weaker'] } }, (r: typeof result) => (result = r));
    const csp = result?.responseHeaders['Content-Security-Policy']?.[0] ?? '';
    expect(result?.responseHeaders['content-security-policy'], 'the server’s own header is replaced, not doubled').toBeUndefined();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/connect-src 'self' http:\/\/127\.0\.0\.1:7717(;|$)/);
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  });

  it('builds the menu with the import, folder, key and reload items; DevTools only in development', async () => {
    const { bootstrap } = await import('../../../../src-main/electron/app');
    await bootstrap();
    const all = labels(h.getMenu() as MenuItemConstructorOptions[]);
    for (const label of ['Import Broker CSV…', 'Import Chain…', 'Open Data Folder', 'Copy API Key', 'role:reload']) expect(all, label).toContain(label);
    expect(all, 'no DevTools in a production build').not.toContain('role:toggleDevTools');
    const { buildMenuTemplate } = await import('../../../../src-main/electron/menu');
    const actions = { importBrokerCsv: vi.fn(), importChain: vi.fn(), openDataFolder: vi.fn(), copyApiKey: vi.fn(), navigate: vi.fn() };
    const dev = labels(buildMenuTemplate(actions, { isDev: true, isMac: false, appName: 'Strikebook' }));
    expect(dev).toContain('role:toggleDevTools');
  });

  it('Copy API Key puts the server key on the clipboard', async () => {
    const { bootstrap } = await import('../../../../src-main/electron/app');
    const electron = await import('electron');
    await bootstrap();
    const find = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions | undefined => {
      for (const item of items) {
        if (item.label === 'Copy API Key') return item;
        if (Array.isArray(item.submenu)) {
          const found = find(item.submenu);
          if (found) return found;
        }
      }
      return undefined;
    };
    const item = find(h.getMenu() as MenuItemConstructorOptions[]);
    (item?.click as unknown as () => void)();
    expect(vi.mocked(electron.clipboard.writeText)).toHaveBeenCalledWith('sb_test_key');
  });

  it('quit waits for server.close() before the app really quits', async () => {
    const { bootstrap, state } = await import('../../../../src-main/electron/app');
    await bootstrap();
    const beforeQuit = h.appHandlers.get('before-quit')?.[0];
    const event = { preventDefault: vi.fn() };
    beforeQuit?.(event);
    expect(event.preventDefault, 'the first quit is held').toHaveBeenCalledTimes(1);
    expect(h.serverClose.calls, 'server.close() called once').toBe(1);
    expect(h.state.quitCalls, 'not quit yet: close() has not resolved').toBe(0);
    h.serverClose.resolve?.();
    await vi.waitFor(() => expect(h.state.quitCalls, 'quits after close() resolved').toBe(1));
    expect(state.server).toBeNull();
    expect(h.serverClose.calls, 'the second before-quit passes through').toBe(1);
  });
});

describe('electron preload', () => {
  beforeEach(() => {
    vi.resetModules();
    h.exposed.length = 0;
  });

  it('exposes only { apiBaseUrl, token, chooseExportFolder } as window.strikebook, frozen', async () => {
    await import('../../../../src-main/electron/preload');
    expect(h.exposed.length, 'one exposed global').toBe(1);
    expect(h.exposed[0]?.key).toBe('strikebook');
    const value = h.exposed[0]?.value as Record<string, unknown>;
    expect(Object.keys(value).sort(), 'nothing but the two values and the dialog (extra fields from main are dropped)').toEqual(['apiBaseUrl', 'chooseExportFolder', 'token']);
    expect(value).toMatchObject({ apiBaseUrl: 'http://127.0.0.1:7717/v1', token: 'sb_test' });
    expect(Object.isFrozen(value)).toBe(true);
    const choose = value.chooseExportFolder as () => Promise<unknown>;
    expect(await choose(), 'the grant and its path, nothing else main sends').toEqual({ folder: 'grant1', path: '/home/me/research' });
    const { ipcRenderer } = await import('electron');
    expect(vi.mocked(ipcRenderer.invoke)).toHaveBeenCalledWith('strikebook:choose-export-folder');
  });

  it('chooseExportFolder answers null for anything but a grant from main', async () => {
    const { exportFolderAnswer } = await import('../../../../src-main/electron/preload');
    expect(exportFolderAnswer(null)).toBeNull();
    expect(exportFolderAnswer({ folder: 1, path: '/x' })).toBeNull();
    expect(exportFolderAnswer({ folder: 'a', path: '/x' })).toEqual({ folder: 'a', path: '/x' });
  });

  it('exposes nothing when main does not answer', async () => {
    const { readSession } = await import('../../../../src-main/electron/preload');
    expect(readSession(() => null)).toBeNull();
    expect(readSession(() => ({ apiBaseUrl: 1, token: 'x' }))).toBeNull();
  });
});

describe('window state', () => {
  it('remembers bounds, and falls back to the default when the file is corrupt or off-screen', async () => {
    const { loadWindowState, saveWindowState, DEFAULT_WINDOW } = await import('../../../../src-main/electron/window-state');
    const dir = mkdtempSync(join(tmpdir(), 'sb-ws-'));
    const file = join(dir, 'window-state.json');
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    saveWindowState(file, { x: 100, y: 80, width: 1300, height: 850, maximized: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ x: 100, y: 80, width: 1300, height: 850, maximized: true });
    expect(loadWindowState(file, screen)).toEqual({ x: 100, y: 80, width: 1300, height: 850, maximized: true });
    saveWindowState(file, { x: 5000, y: 80, width: 1300, height: 850, maximized: false });
    expect(loadWindowState(file, screen), 'a window on an unplugged monitor is re-centred (no x/y)').toEqual({ width: 1300, height: 850, maximized: false });
    writeFileSync(file, '{"width": ');
    expect(loadWindowState(file, screen)).toEqual(DEFAULT_WINDOW);
    saveWindowState(file, { width: 200, height: 100, maximized: false });
    expect(loadWindowState(file, screen), 'never smaller than the minimum size').toEqual({ width: 960, height: 620, maximized: false });
  });
});
