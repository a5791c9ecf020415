import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { App } from '../app';
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

/**
 * Headless mode: the built renderer at `/`. Files are read once and kept (the bundle is small); paths that
 * leave the folder are refused. The key never appears in the HTML: the page reads it from the URL fragment.
 */
export function registerStaticRoutes(app: App, uiDir: string, port: number): void {
  const root = normalize(uiDir);
  const files = new Map<string, { body: Buffer; type: string }>();
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

  function load(path: string): { body: Buffer; type: string } | null {
    const cached = files.get(path);
    if (cached) return cached;
    const full = normalize(join(root, path));
    if (!full.startsWith(root + sep) && full !== root) return null;
    if (!existsSync(full) || !statSync(full).isFile()) return null;
    const file = { body: readFileSync(full), type: TYPES[extname(full)] ?? 'application/octet-stream' };
    files.set(path, file);
    return file;
  }

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    let path: string;
    try {
      path = decodeURIComponent((request.url.split('?', 1)[0] ?? '/').replace(/^\/+/, ''));
    } catch {
      return sendProblem(reply, makeProblem('NOT_FOUND', 'Malformed path.'));
    }
    const file = (path === '' ? null : load(path)) ?? (extname(path) === '' ? load('index.html') : null);
    if (!file) return sendProblem(reply, makeProblem('NOT_FOUND', `No file ${path.slice(0, 200)}.`));
    reply.header('Content-Security-Policy', csp).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
    if (path.startsWith('assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    return reply.type(file.type).send(file.body);
  });
}
