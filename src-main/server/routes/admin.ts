import type { SettingsJson } from '../../../src-shared/api/schemas';
import type { AppContext } from '../context';
import { ApiError } from '../problems';
import { parseJsonBody, strictBodyCompiler } from '../validation';
import { loadDemo } from '../../services/demo';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';
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
  serve(v1, 'GET /settings', async () => settingsJson(ctx));
  serve(
    v1,
    'PUT /settings',
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
    {
      preValidation: async (request) => {
        request.body = parseJsonBody(request.body);
      },
      validatorCompiler: strictBodyCompiler,
    },
  );
  serve(v1, 'POST /keys/rotate', async () => ({ key: await ctx.rotateKey(), keyFile: ctx.keyFilePath }));
  serve(v1, 'POST /demo', async () => loadDemo(ctx));
}
