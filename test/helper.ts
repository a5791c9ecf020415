import { rmSync } from 'node:fs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../src-main/server/app';
import { createContext, type OwnedContext } from '../src-main/context';
import type { Settings } from '../src-main/settings';

export { REPO_ROOT, SHARED_FIXTURES, CHAIN_FIXTURES, BROKER_FIXTURES_SHARED, haveSharedChains, TEST_PORT, HOST, tempDir } from './paths';
import { HOST, TEST_PORT, tempDir } from './paths';

export interface TestApp {
  app: App;
  ctx: OwnedContext;
  key: string;
  dataDir: string;
  /** inject with the Host and Bearer headers set (override or drop them with `headers`). */
  request(options: InjectOptions | string): Promise<LightMyRequestResponse>;
  get<T = unknown>(url: string): Promise<{ status: number; body: T; response: LightMyRequestResponse }>;
  close(): Promise<void>;
}

/** The app in-process on a fresh data folder (fastify/demo's test/helper.ts pattern). */
export async function buildTestApp(options: { overrides?: Partial<Settings>; dataDir?: string; uiDir?: string | null } = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? tempDir();
  const ctx = createContext({ dataDir, overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 }, ...options.overrides } });
  const app = await buildApp(ctx, { port: TEST_PORT, uiDir: options.uiDir ?? null, logErrors: (error) => console.error('[test app error]', error) });
  await app.ready();
  const request = (opts: InjectOptions | string) => {
    const base: InjectOptions = typeof opts === 'string' ? { url: opts } : opts;
    return app.inject({ ...base, headers: { host: HOST, authorization: `Bearer ${ctx.apiKey}`, ...(base.headers ?? {}) } });
  };
  return {
    app,
    ctx,
    key: ctx.apiKey,
    dataDir,
    request,
    async get<T>(url: string) {
      const response = await request(url);
      return { status: response.statusCode, body: (response.body === '' ? null : response.json()) as T, response };
    },
    async close() {
      await app.close();
      await ctx.close();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
