/**
 * Headless build of the renderer (`npm run build:web`): the same React app the desktop window shows, written to
 * out/renderer so `strikebook serve` can serve it at `/`. Hash routing and a relative base keep it working from
 * any mount point (and from file:// in Electron).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('./src-renderer', import.meta.url));
const outDir = fileURLToPath(new URL('./out/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    // The initial chunk is budgeted at 400 KB gzipped (docs/architecture.md §Budgets); chart pages are lazy chunks.
    chunkSizeWarningLimit: 500,
  },
});
