import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  importBrokerCsv: () => void;
  importChain: () => void;
  openDataFolder: () => void;
  copyApiKey: () => void;
  navigate: (page: string) => void;
}

/** The application menu. DevTools only in development; the usual roles so copy/paste work in inputs on macOS. */
export function buildMenuTemplate(actions: MenuActions, options: { isDev: boolean; isMac: boolean; appName: string }): MenuItemConstructorOptions[] {
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { id: 'import-broker', label: 'Import Broker CSV…', accelerator: 'CmdOrCtrl+O', click: () => actions.importBrokerCsv() },
      { id: 'import-chain', label: 'Import Chain…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.importChain() },
      { type: 'separator' },
      { id: 'open-data-folder', label: 'Open Data Folder', click: () => actions.openDataFolder() },
      { id: 'copy-api-key', label: 'Copy API Key', click: () => actions.copyApiKey() },
      ...(options.isMac ? [] : ([{ type: 'separator' }, { role: 'quit' }] as MenuItemConstructorOptions[])),
    ],
  };
  const go: MenuItemConstructorOptions = {
    label: 'Go',
    submenu: [
      { label: 'Journal', accelerator: 'CmdOrCtrl+1', click: () => actions.navigate('journal') },
      { label: 'Transactions', accelerator: 'CmdOrCtrl+2', click: () => actions.navigate('transactions') },
      { label: 'Import', accelerator: 'CmdOrCtrl+3', click: () => actions.navigate('import') },
      { label: 'Exposure', accelerator: 'CmdOrCtrl+4', click: () => actions.navigate('exposure') },
      { label: 'Events', accelerator: 'CmdOrCtrl+5', click: () => actions.navigate('events') },
      { label: 'Settings', accelerator: 'CmdOrCtrl+,', click: () => actions.navigate('settings') },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { id: 'reload', role: 'reload' },
      ...(options.isDev ? ([{ id: 'devtools', role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const template: MenuItemConstructorOptions[] = [];
  if (options.isMac) {
    template.push({
      label: options.appName,
      submenu: [{ role: 'about' }, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
    });
  }
  template.push(file, { role: 'editMenu' }, view, go, { role: 'windowMenu' });
  return template;
}
