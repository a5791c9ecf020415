import { readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { App } from '../route-kit';
import { makeProblem } from '../../../src-shared/api/errors';
import { sendProblem } from '../problems';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** The built renderer is a few MB; the bound only matters if the folder were ever much larger. */
const STATIC_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Headless mode: the built renderer at `/`. Files are read once and kept, keyed by the file they resolve to (so
 * however many spellings reach a file, it is held once); paths that leave the folder are refused, through a symbolic
 * link too. The key never appears in the HTML: the page reads it from the URL fragment.
 */
export function registerStaticRoutes(app: App, uiDir: string, port: number): void {
  const root = normalize(uiDir);
  const realRoot = realpathSync(root);
  const files = new LRUCache<string, { body: Buffer; type: string }>({ maxSize: STATIC_CACHE_BYTES, sizeCalculation: (file) => Math.max(1, file.body.length) });
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' http://127.0.0.1:${port} http://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

  function load(relative: string): { body: Buffer; type: string } | null {
    const full = normalize(join(root, relative));
    if (!full.startsWith(root + sep)) return null;
    const cached = files.get(full);
    if (cached) return cached;
    try {
      // A symbolic link is served only when it resolves inside the folder: a link to the data folder's api-key (or
      // to /etc) must not become a public URL.
      if (!realpathSync(full).startsWith(realRoot + sep) || !statSync(full).isFile()) return null;
    } catch {
      return null;
    }
    const file = { body: readFileSync(full), type: TYPES[extname(full)] ?? 'application/octet-stream' };
    files.set(full, file);
    return file;
  }

  app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    // The target is canonical (target.ts): no dot segments, every segment validly encoded.
    const path = decodeURIComponent((request.url.split('?', 1)[0] ?? '/').slice(1));
    const file = (path === '' ? null : load(path)) ?? (extname(path) === '' ? load('index.html') : null);
    if (!file) return sendProblem(reply, makeProblem('NOT_FOUND', `No file ${path.slice(0, 200)}.`));
    reply.header('Content-Security-Policy', csp).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
    if (path.startsWith('assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    return reply.type(file.type).send(file.body);
  });
}
