/**
 * A chain file sent to `POST /v1/chains`: stored (parsed, prepared and evaluated in the exposure worker outside any
 * write turn, stopped if the client goes away; stored in a write turn: ingest.ts), with the events the Events page
 * lists for it: its flips and walls, and the position events its commit raised. Those need the journal's open
 * positions: while the journal worker is busy (a large import's parse) the answer does not wait for them past
 * POSITION_EVENTS_WAIT_MS, and says their count is not known yet (null).
 */
import { ok, type Result } from '../result';
import type { ChainFileOptions } from './compute';
import type { PositionAlerts } from './position-alerts';
import type { ExposureService, IngestResult } from './service';

/** How long a chain's answer waits for its position events (the journal's open positions) before it leaves without them. */
export const POSITION_EVENTS_WAIT_MS = 2_000;

export type ChainUploadResult = IngestResult & { eventsByScope: IngestResult['eventsByScope'] & { position: number | null } };

export async function storeChainUpload(
  deps: { exposure: Pick<ExposureService, 'ingest'>; positionAlerts: Pick<PositionAlerts, 'createdFor'> },
  file: Uint8Array,
  options: ChainFileOptions,
  signal?: AbortSignal,
): Promise<Result<ChainUploadResult>> {
  const stored = await deps.exposure.ingest({ file, options }, signal);
  if (!stored.ok) return stored;
  const result = stored.value;
  const position = result.stored ? await settledWithin(deps.positionAlerts.createdFor(result.id), POSITION_EVENTS_WAIT_MS) : 0;
  return ok({ ...result, events: result.events + (position ?? 0), eventsByScope: { ...result.eventsByScope, position } });
}

/** The promise's value, or null when it has not settled within `ms`. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
