/**
 * Research exports (docs/research.md): `POST /v1/exports` starts the Parquet lake's export in a lake worker thread
 * and answers 202 with the job at once; `GET /v1/exports/{id}` follows its progress, `GET /v1/exports` lists the
 * recent ones. The folder is the data folder's `exports/` or one granted by the desktop app's dialog, never a path
 * from the request.
 */
import { isIsoDate } from '../../../src-shared/calendar';
import { boundYearOutOfRange, DATE_YEARS } from '../../../src-shared/api/schema-kit';
import { parseDateTimeInZone } from '../../../src-shared/zone';
import { writtenAsDay } from '../../../src-shared/date-or-instant';
import { instantBound } from '../../services/exposure/values';
import type { AppContext } from '../context';
import { ApiError, unwrap } from '../problems';
import type { V1 } from '../route-kit';
import { serve } from '../route-table';
import { parseJsonBody, strictBodyCompiler } from '../validation';

/**
 * A bound that matches the pattern but names no real day or instant (2026-02-30), or lies outside the years of every
 * date parameter (a date by its year, an instant by its year once its offset is applied: issue 29 took 9999-12-31):
 * 400 naming it.
 */
function checkBound(name: 'from' | 'to', value: string | undefined): void {
  if (value === undefined) return;
  const isDay = writtenAsDay(value);
  const instantMs = isDay ? Number.NaN : parseDateTimeInZone(value);
  const real = isDay ? isIsoDate(value) : !Number.isNaN(instantMs);
  if (!real) throw new ApiError('INVALID_PARAMETER', `${name}: ${value} is not a calendar date or an instant`, [{ param: name, message: 'is not a calendar date or an instant' }]);
  const year = boundYearOutOfRange(value, instantMs);
  if (year !== null) {
    const message = `names the year ${String(year).padStart(4, '0')}${isDay ? '' : ' once its offset is applied'}, outside ${DATE_YEARS.min}–${DATE_YEARS.max}`;
    throw new ApiError('INVALID_PARAMETER', `${name}: ${value} ${message}`, [{ param: name, message }]);
  }
}

export function registerExportRoutes(v1: V1, ctx: AppContext): void {
  serve(
    v1,
    'POST /exports',
    async (request, reply) => {
      const { from, to } = request.body;
      checkBound('from', from);
      checkBound('to', to);
      if (from !== undefined && to !== undefined && instantBound(from, 'start') > instantBound(to, 'end')) {
        throw new ApiError('INVALID_PARAMETER', `from (${from}) is after to (${to}).`, [{ param: 'from', message: 'must not be after to' }]);
      }
      const job = unwrap(ctx.exports.start(request.body));
      return reply.code(202).header('Location', `/v1/exports/${job.id}`).send(job);
    },
    {
      // No body is an export of everything; a body is JSON, parsed refusing prototype keys, validated without coercion.
      preValidation: async (request) => {
        const body: unknown = request.body;
        request.body = body === undefined || body === '' ? {} : parseJsonBody(body);
      },
      validatorCompiler: strictBodyCompiler,
    },
  );
  serve(v1, 'GET /exports', async () => ({ exports: ctx.exports.list() }));
  serve(v1, 'GET /exports/{id}', async (request) => unwrap(ctx.exports.get(request.params.id)));
}
