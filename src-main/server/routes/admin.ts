import { DemoResponse, KeyRotateResponse, NoQuery, SettingsSchema, SettingsUpdate, type SettingsJson } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { ApiError } from '../problems';
import { parseJsonBody, strictBodyCompiler } from '../validation';
import { loadDemo } from '../../services/demo';
import { problemResponses, type V1 } from '../route-kit';
import { originProblem, sourceUrlProblem } from '../../setting-rules';
import { folderProblem } from '../../services/chain-folder';

/** GET /settings: the settings and the data folder; the response schema (SettingsSchema) is what is written, nothing else kept beside them. */
function settingsJson(ctx: AppContext): SettingsJson {
  return { ...ctx.settings, dataDir: ctx.dataDir };
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
  v1.get('/settings', { schema: { summary: 'Current settings', tags: ['settings'], querystring: NoQuery, response: { 200: SettingsSchema, ...problemResponses } } }, async () => settingsJson(ctx));
  v1.put(
    '/settings',
    {
      // The body arrives as text (app.ts): parse it here, refusing prototype keys, then validate without coercion.
      preValidation: async (request) => {
        // Typed as the schema's type already; the validator that runs next makes it so.
        request.body = parseJsonBody(request.body) as typeof request.body;
      },
      validatorCompiler: strictBodyCompiler,
      schema: { summary: 'Change settings (JSON body with any subset of the fields)', tags: ['settings'], querystring: NoQuery, body: SettingsUpdate, response: { 200: SettingsSchema, ...problemResponses } },
    },
    async (request) => {
      const update = request.body;
      if (update.timeZone !== undefined && !isValidZone(update.timeZone)) {
        throw new ApiError('INVALID_PARAMETER', `timeZone: "${update.timeZone}" is not an IANA time zone`, [{ param: 'timeZone', message: 'is not an IANA time zone' }]);
      }
      const badOrigins = (update.corsOrigins ?? []).flatMap((origin, index) => {
        const problem = originProblem(origin);
        return problem === null ? [] : [{ param: `corsOrigins.${index}`, message: `"${origin.slice(0, 100)}" ${problem}` }];
      });
      if (badOrigins.length > 0) throw new ApiError('INVALID_PARAMETER', `corsOrigins: ${badOrigins.map((e) => e.message).join('; ')}.`, badOrigins);
      const baseUrl = update.onlineSource?.baseUrl;
      const sourceProblem = baseUrl === undefined ? null : sourceUrlProblem(baseUrl);
      if (sourceProblem !== null) {
        // The address as it was sent, with its control characters shown (a CR LF is the point of the message).
        const shown = JSON.stringify((baseUrl ?? '').slice(0, 200));
        throw new ApiError('INVALID_PARAMETER', `onlineSource.baseUrl: ${shown} ${sourceProblem}.`, [{ param: 'onlineSource.baseUrl', message: `${shown} ${sourceProblem}` }]);
      }
      // The watch folder moves the files it reads: an existing folder of the user's, no link, not the data folder.
      const watchFolder = update.watchFolder?.trim() ?? '';
      const folder = watchFolder === '' ? null : await folderProblem(watchFolder, ctx.dataDir);
      if (folder !== null) {
        const shown = JSON.stringify(watchFolder.slice(0, 300));
        throw new ApiError('INVALID_PARAMETER', `watchFolder: ${shown} ${folder}.`, [{ param: 'watchFolder', message: `${shown} ${folder}` }]);
      }
      await ctx.updateSettings(update.watchFolder === undefined ? update : { ...update, watchFolder });
      return settingsJson(ctx);
    },
  );
  v1.post(
    '/keys/rotate',
    { schema: { summary: 'Replace the key of the api-key file (the old key stops working)', tags: ['settings'], querystring: NoQuery, response: { 200: KeyRotateResponse, ...problemResponses } } },
    async () => ({ key: await ctx.rotateKey(), keyFile: ctx.keyFilePath }),
  );
  v1.post(
    '/demo',
    { schema: { summary: 'Load the generated demo market and demo journal (clearly marked source demo)', tags: ['settings'], querystring: NoQuery, response: { 200: DemoResponse, ...problemResponses } } },
    async () => loadDemo(ctx),
  );
}
