/**
 * Desktop build (`npm run build` / `npm start`): main and preload from src-main/electron, the renderer from
 * src-renderer (the same app `npm run build:web` builds for the headless server).
 *
 * - main: ESM (package.json "type": "module"); dependencies stay external (node_modules ship in the app). Two
 *   entries: main.js and journal-worker.js, the journal's worker thread, which the main process starts from beside
 *   itself (src-main/services/journal/client.ts); shared chunks stay in the same folder, so every module of the
 *   main process resolves the worker (and ../preload) from out/main.
 * - preload: CommonJS (`preload.cjs`), because sandboxed preloads cannot be ES modules.
 * - renderer in development: the Vite dev server proxies /v1 to the API the main process starts on
 *   STRIKEBOOK_DEV_API_PORT (default 7718), so the page stays same-origin and the API needs no CORS.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const devApiPort = Number(process.env.STRIKEBOOK_DEV_API_PORT ?? 7718);

export default defineConfig({
  main: {
    build: {
      outDir: here('./out/main'),
      rollupOptions: {
        input: {
          main: here('./src-main/electron/main.ts'),
          'journal-worker': here('./src-main/services/journal/worker.ts'),
          // Chain files and history points off the event loop (services/exposure/worker-client.ts).
          'exposure-worker': here('./src-main/services/exposure/worker.ts'),
          // Research exports (the Parquet lake), a thread per export (services/exports.ts).
          'lake-worker': here('./src-main/services/lake-worker.ts'),
          // Backups of the journal (VACUUM INTO), a thread per backup (services/backups.ts).
          'backup-worker': here('./src-main/services/backup-worker.ts'),
        },
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: here('./out/preload'),
      rollupOptions: {
        input: { preload: here('./src-main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: here('./src-renderer'),
    base: './',
    plugins: [react()],
    server: {
      proxy: {
        '/v1': { target: `http://127.0.0.1:${devApiPort}`, changeOrigin: true, ws: false },
      },
    },
    build: {
      outDir: here('./out/renderer'),
      target: 'es2022',
      // electron-vite leaves the renderer unminified by default; the window should load what the web build ships.
      minify: true,
      rollupOptions: { input: { index: here('./src-renderer/index.html') } },
    },
  },
});
