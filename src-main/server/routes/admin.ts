import { Compile } from 'typebox/compile';
import { DemoResponse, KeyRotateResponse, SettingsSchema, SettingsUpdate, type SettingsJson, type SettingsUpdateT } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { ApiError } from '../problems';
import { loadDemo } from '../../demo';
import { problemResponses, type V1 } from './health';

const checkUpdate = Compile(SettingsUpdate);

function settingsJson(ctx: AppContext): SettingsJson {
  const s = ctx.settings;
  return {
    port: s.port,
    dataDir: ctx.dataDir,
    rate: s.rate,
    timeZone: s.timeZone,
    reportingCurrency: s.reportingCurrency,
    cacheSeconds: s.cacheSeconds,
    snapshotRetention: s.snapshotRetention,
    rateLimit: s.rateLimit,
    corsOrigins: s.corsOrigins,
    onlineSource: s.onlineSource,
  };
}

function isValidZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function registerAdminRoutes(v1: V1, ctx: AppContext): void {
  v1.get('/settings', { schema: { summary: 'Current settings', tags: ['settings'], response: { 200: SettingsSchema, ...problemResponses } } }, async () => settingsJson(ctx));
  v1.put(
    '/settings',
    { schema: { summary: 'Change settings (JSON body with any subset of the fields)', tags: ['settings'], response: { 200: SettingsSchema, ...problemResponses } } },
    async (request) => {
      let body: unknown;
      try {
        body = JSON.parse(typeof request.body === 'string' ? request.body : '');
      } catch {
        throw new ApiError('INVALID_PARAMETER', 'The body must be a JSON object of settings.', [{ param: 'body', message: 'is not JSON' }]);
      }
      if (!checkUpdate.Check(body)) {
        const errors = [...checkUpdate.Errors(body)].slice(0, 20).map((e) => {
          const extra = (e.params as { additionalProperties?: string[] }).additionalProperties;
          return { param: extra?.[0] ?? (e.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body'), message: e.message };
        });
        const unknown = [...checkUpdate.Errors(body)].some((e) => e.keyword === 'additionalProperties');
        throw new ApiError(unknown ? 'UNKNOWN_PARAMETER' : 'INVALID_PARAMETER', `Invalid settings: ${errors.map((e) => `${e.param} ${e.message}`).join('; ')}`, errors);
      }
      const update = body as SettingsUpdateT;
      if (update.timeZone !== undefined && !isValidZone(update.timeZone)) {
        throw new ApiError('INVALID_PARAMETER', `timeZone: "${update.timeZone}" is not an IANA time zone`, [{ param: 'timeZone', message: 'is not an IANA time zone' }]);
      }
      await ctx.updateSettings(update);
      return settingsJson(ctx);
    },
  );
  v1.post(
    '/keys/rotate',
    { schema: { summary: 'Replace the key of the api-key file (the old key stops working)', tags: ['settings'], response: { 200: KeyRotateResponse, ...problemResponses } } },
    async () => ({ key: await ctx.rotateKey(), keyFile: ctx.keyFilePath }),
  );
  v1.post(
    '/demo',
    { schema: { summary: 'Load the generated demo market and demo journal (clearly marked source demo)', tags: ['settings'], response: { 200: DemoResponse, ...problemResponses } } },
    async () => loadDemo(ctx),
  );
}
