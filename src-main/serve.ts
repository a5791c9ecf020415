import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp, type App } from './server/app';
import type { ListenerOptions } from './server/listener';
import type { Clock } from './clock';
import { createContext, type OwnedContext } from './context';
import { loadDemo } from './services/demo';
import { OnlineSource } from './services/online-source';
import type { Settings } from './settings';

export interface ServeOptions {
  dataDir: string;
  /** 0 = a free port. Default: the stored setting (7717). */
  port?: number;
  host?: string;
  demo?: boolean;
  /** Built renderer to serve at `/`; default `out/renderer` when it exists. null = API only. */
  uiDir?: string | null;
  nativeBinding?: string;
  /** Settings for this run only (not saved): the bench lifts the rate limit. */
  overrides?: Partial<Settings>;
  /** Interval of the key-usage flush (tests shorten it). */
  keyUsageFlushMs?: number;
  /** "Now" of the server (default the system's; tests set their own). */
  clock?: Clock;
  log?: (line: string) => void;
  /** The request timeout and the connection cap (server/listener.ts; tests lower them). */
  listener?: ListenerOptions;
}

export interface RunningServer {
  url: string;
  apiBaseUrl: string;
  /** The UI URL with the key in the fragment (never sent to the server, kept by the page). */
  uiUrl: string | null;
  port: number;
  apiKey: string;
  keyFilePath: string;
  dataDir: string;
  ctx: OwnedContext;
  app: App;
  close(): Promise<void>;
}

export function defaultUiDir(): string | null {
  // From the sources (src-main/) the build is ../out/renderer; from the bundle (out/node/) it is ../renderer.
  for (const relative of ['../out/renderer', '../renderer']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${dir}/index.html`)) return dir;
  }
  return null;
}

/**
 * The headless entry and the Electron main process both call this: open the data folder, build the app,
 * listen on loopback. The Host check needs the real port, so with port 0 a free port is found first.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const ctx = createContext({
    dataDir: options.dataDir,
    demo: options.demo === true,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.overrides ? { overrides: options.overrides } : {}),
    ...(options.keyUsageFlushMs === undefined ? {} : { keyUsageFlushMs: options.keyUsageFlushMs }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  try {
    const host = options.host ?? '127.0.0.1';
    const requested = options.port ?? ctx.settings.port;
    const port = requested === 0 ? await freePort(host) : requested;
    // The journal worker must start in this run mode (sources, bundle, Electron): fail the start, not a request.
    await ctx.journal.ready();
    if (options.demo) {
      const demo = await loadDemo(ctx);
      options.log?.(`Demo loaded: ${demo.transactions} new transactions, ${demo.snapshots} new snapshots, ${demo.events} events.`);
    }
    // The worker builds its index and ledger while the server starts listening; early reads wait for it there.
    ctx.journal.warm().catch((error: unknown) => options.log?.(`[journal] warm-up failed: ${String(error)}`));
    const uiDir = options.uiDir === undefined ? defaultUiDir() : options.uiDir;
    const app = await buildApp(ctx, {
      ...options.listener,
      port,
      uiDir,
      logErrors: (error, request) => options.log?.(`[error] ${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
    await app.listen({ port, host });
    const online = new OnlineSource(ctx, options.log);
    online.start();
    // The daily backup of the journal (services/backups.ts): taken now when the newest is older than a day.
    ctx.backups.start();
    // Chains that arrive by themselves (issue 30): the watch folder and the schedule look every second and every 15 s;
    // a backfill the last run left half-way is marked interrupted (Settings offers to continue it).
    ctx.watchFolder.start();
    ctx.schedule.start();
    ctx.backfill.markInterrupted().catch((error: unknown) => options.log?.(`[backfill] ${String(error)}`));
    const url = `http://${host}:${port}`;
    let closed = false;
    return {
      url,
      apiBaseUrl: `${url}/v1`,
      uiUrl: uiDir ? `${url}/#key=${ctx.apiKey}` : null,
      port,
      get apiKey() {
        return ctx.apiKey;
      },
      keyFilePath: ctx.keyFilePath,
      dataDir: options.dataDir,
      ctx,
      app,
      async close() {
        if (closed) return;
        closed = true;
        online.stop();
        await Promise.all([ctx.schedule.stop(), ctx.watchFolder.stop(), ctx.backfill.stop()]);
        // Uploads being parsed are stopped first: the HTTP server waits for their requests (docs/decisions.md §Jobs).
        ctx.stopJobs();
        await app.close();
        await ctx.close();
      },
    };
  } catch (error) {
    await ctx.close().catch(() => undefined);
    throw error;
  }
}

async function freePort(host: string): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
