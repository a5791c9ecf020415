import { rmSync } from 'node:fs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { buildApp, type App } from '../src-main/server/app';
import { createContext, type OwnedContext } from '../src-main/context';
import type { Clock } from '../src-main/clock';
import type { Settings } from '../src-main/settings';
import type { IngestResult } from '../src-main/services/exposure/service';
import { writeNow } from '../src-main/db/writes';
import { parseChainFile, type ChainParseOptions } from '../src-main/chains/index';
import type { ChainSnapshot } from '../src-shared/exposure/model';

export { REPO_ROOT, SHARED_FIXTURES, CHAIN_FIXTURES, BROKER_FIXTURES_SHARED, TEST_PORT, HOST, tempDir } from './paths';
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
export async function buildTestApp(options: { overrides?: Partial<Settings>; dataDir?: string; uiDir?: string | null; clock?: Clock; extraPages?: number } = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? tempDir();
  const ctx = createContext({
    dataDir,
    overrides: { rateLimit: { perSecond: 1e6, burst: 1e6 }, ...options.overrides },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.extraPages === undefined ? {} : { extraPages: options.extraPages }),
  });
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

/**
 * The app of a test file (or describe block): built before its tests, closed after them. The object stands for the
 * app from beforeAll on; touching it before then is a mistake in the test and throws.
 */
export function useTestApp(options: Parameters<typeof buildTestApp>[0] = {}, scope: 'all' | 'each' = 'all'): TestApp {
  let built: TestApp | undefined;
  // 'each': a new app (and data folder) for every `it`, for stories whose steps each replay the ones before.
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    built = await buildTestApp(options);
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    await built?.close();
    built = undefined;
  });
  const current = (): TestApp => {
    if (built === undefined) throw new Error('useTestApp: the app is built in beforeAll');
    return built;
  };
  return {
    get app() {
      return current().app;
    },
    get ctx() {
      return current().ctx;
    },
    get key() {
      return current().key;
    },
    get dataDir() {
      return current().dataDir;
    },
    request: (request) => current().request(request),
    get: (url) => current().get(url),
    close: () => current().close(),
  };
}

/**
 * A chain file parsed and stored on this thread, as no caller of the service does any more (a file is planned in the
 * exposure worker): a quick way for a test to set snapshots up without a worker call of its own.
 */
export async function storeChainFileInline(ctx: Pick<OwnedContext, 'exposure'>, text: string, options: ChainParseOptions = {}): Promise<IngestResult> {
  const parsed = parseChainFile(text, options);
  if (!parsed.ok) throw new Error(`chain file refused: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  const result = await ctx.exposure.ingest({ snapshot: parsed.snapshot });
  if (!result.ok) throw new Error(`snapshot refused: ${JSON.stringify(result.error)}`);
  return result.value;
}

/**
 * Stores a snapshot through the exposure service (planned inline and committed as the demo's are), at once, in a
 * transaction of its own outside the write queue (writeNow: tests setting rows up); a refusal fails the test.
 */
export function storeChain(ctx: Pick<OwnedContext, 'exposure' | 'db'>, snapshot: ChainSnapshot): IngestResult {
  const result = writeNow(ctx.db, (turn) => ctx.exposure.ingestInTurn(turn, snapshot));
  if (!result.ok) throw new Error(`snapshot refused: ${JSON.stringify(result.error)}`);
  return result.value;
}
