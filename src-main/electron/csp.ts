/**
 * The desktop window's Content-Security-Policy. The UI is served by the local API server itself (same origin),
 * so scripts, styles and API calls are all 'self'; nothing else may load or be connected to. Development adds
 * the Vite dev server and its HMR socket.
 */
export function contentSecurityPolicy(apiOrigin: string, devServerOrigin?: string): string {
  const api = new URL(apiOrigin).origin;
  const self = ["'self'", api];
  const connect = [...self];
  const script = [...self];
  if (devServerOrigin) {
    const dev = new URL(devServerOrigin);
    script.push(dev.origin);
    connect.push(dev.origin, `ws://${dev.host}`);
  }
  return [
    "default-src 'none'",
    `script-src ${script.join(' ')}`,
    // Inline style attributes only (React and lightweight-charts set element styles); no inline scripts.
    `style-src ${self.join(' ')} 'unsafe-inline'`,
    `img-src ${self.join(' ')} data: blob:`,
    `font-src ${self.join(' ')} data:`,
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** True when `url` may be shown inside the app window (the local UI); everything else opens outside or not at all. */
export function isAppUrl(url: string, allowedOrigins: readonly string[]): boolean {
  try {
    const origin = new URL(url).origin;
    return allowedOrigins.some((allowed) => new URL(allowed).origin === origin);
  } catch {
    return false;
  }
}
