/**
 * Alerts on your strikes (issue 18; docs/exposure.md §Events, "Alerts on your strikes"): when a snapshot becomes its
 * underlying's newest, the short options of that underlying (the journal worker's positions as of now) are held
 * against the levels of their own expiration (DESIGN §5 "Levels scope": what Positions shows by default) in the
 * previous and the new snapshot (history points of the scope `expirations=<its date>`, computed by the exposure
 * workers and kept), and the position events found are stored and streamed like the others. Runs after the snapshot's
 * own write, one snapshot at a time: the journal read and the points happen outside any write turn, the states and
 * events take one short turn.
 */
import type { Database } from 'better-sqlite3';
import type { GexHistoryPoint } from '../../../src-shared/exposure/index';
import type { Ticker } from '../../../src-shared/ids';
import {
  evaluatePositionAlerts,
  positionAlertText,
  type DealerLevelValues,
  type OptionPositionInput,
  type PositionAlertDraft,
  type PositionLevelState,
} from '../../../src-shared/exposure/position-alerts';

/** One expiration's levels in the previous snapshot (null: none) and the new one. */
interface ExpirationLevels {
  before: DealerLevelValues | null;
  after: DealerLevelValues;
}
import { PositionAlertStateRepository } from '../../db/position-alerts';
import { SnapshotRepository } from '../../db/snapshots';
import type { WriteQueue, WriteTx } from '../../db/writes';
import type { Settings } from '../../settings';
import { nowDate, type Clock } from '../../clock';
import { dateInZone, NEW_YORK, todayIn } from '../../../src-shared/zone';
import type { ExposureEvent } from './events';
import type { ExposureService, NewestSnapshot } from './service';
import type { JournalApi } from '../journal/client';

function levelsOf(point: GexHistoryPoint | undefined): DealerLevelValues | null {
  if (point === undefined) return null;
  return { gammaFlip: point.gammaInflection, callWall: point.callWall?.strike ?? null, putWall: point.putWall?.strike ?? null };
}

/** Snapshots whose position-event count is remembered for their import's answer. */
const CREATED_KEPT = 256;

export interface PositionAlertDeps {
  db: Database;
  exposure: Pick<ExposureService, 'onNewestSnapshot' | 'eventStore' | 'publishEvent' | 'scopePoints'>;
  journal: Pick<JournalApi, 'positions'>;
  writes: WriteQueue;
  settings: () => Pick<Settings, 'positionAlertDistancePct'>;
  clock: Clock;
  log?: (line: string) => void;
}

export class PositionAlerts {
  private queue: Promise<void> = Promise.resolve();
  private readonly states: PositionAlertStateRepository;
  private readonly snapshots: SnapshotRepository;
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: PositionAlertDeps) {
    this.states = new PositionAlertStateRepository(deps.db);
    this.snapshots = new SnapshotRepository(deps.db);
    this.unsubscribe = deps.exposure.onNewestSnapshot((snapshot) => {
      this.queue = this.queue
        .then(() => this.evaluate(snapshot))
        .then(
          () => undefined,
          (error: unknown) => deps.log?.(`[alerts] ${snapshot.symbol}: ${String(error)}`),
        );
    });
  }

  /** Resolves once every snapshot heard of so far is evaluated (tests; closing). */
  idle(): Promise<void> {
    return this.queue;
  }

  /** Position events stored per snapshot evaluated lately (a chain import's count of new events): at most CREATED_KEPT. */
  private readonly createdBySnapshot = new Map<number, number>();

  /**
   * How many position events a stored snapshot made, once it is evaluated (POST /v1/chains counts them with its flip and
   * wall events, as the Events page lists them); 0 for one not heard of as its symbol's newest.
   */
  async createdFor(snapshotId: number): Promise<number> {
    await this.queue;
    return this.createdBySnapshot.get(snapshotId) ?? 0;
  }

  close(): Promise<void> {
    this.unsubscribe();
    return this.queue;
  }

  private isNewest(snapshot: NewestSnapshot): boolean {
    return this.snapshots.list(snapshot.symbol)[0]?.id === snapshot.snapshotId;
  }

  /** The short options of an underlying, open now. */
  private async shortOptions(symbol: Ticker): Promise<OptionPositionInput[]> {
    const read = await this.deps.journal.positions({ symbol });
    if (!read.ok) return [];
    const list: OptionPositionInput[] = [];
    for (const { position: p } of read.value.positions) {
      if (!p.isOption || p.underlying !== symbol || p.quantity >= 0 || p.expiration === null || p.strike === null || p.right === null) continue;
      list.push({ accountId: p.accountId, symbol: p.symbol, expiration: p.expiration, strike: p.strike, right: p.right, quantity: p.quantity });
    }
    return list;
  }

  async evaluate(snapshot: NewestSnapshot): Promise<ExposureEvent[]> {
    // Snapshots stored in a burst (the demo, a refresh): only the newest is worth a journal read.
    if (!this.isNewest(snapshot)) return [];
    const positions = await this.shortOptions(snapshot.symbol);
    const previousId = this.snapshots.list(snapshot.symbol)[1]?.id ?? null;
    const levels = await this.ownLevels(snapshot, previousId, positions);
    const today = todayIn(NEW_YORK, nowDate(this.deps.clock));
    const created = await this.deps.writes.run((turn) => this.store(turn, snapshot, positions, levels, today));
    this.createdBySnapshot.set(snapshot.snapshotId, created.length);
    if (this.createdBySnapshot.size > CREATED_KEPT) this.createdBySnapshot.delete(this.createdBySnapshot.keys().next().value ?? snapshot.snapshotId);
    for (const event of created) this.deps.exposure.publishEvent(event);
    return created;
  }

  /**
   * The levels of each short option's own expiration in the new snapshot and the previous one (null: none before),
   * by expiration; expirations past at the quote are left out (they alert nothing).
   */
  private async ownLevels(snapshot: NewestSnapshot, previousId: number | null, positions: readonly OptionPositionInput[]): Promise<Map<string, ExpirationLevels>> {
    const quoteDay = dateInZone(Date.parse(snapshot.quoteTime), NEW_YORK);
    const expirations = [...new Set(positions.map((p) => p.expiration))].filter((e) => e >= quoteDay).sort();
    const ids = previousId === null ? [snapshot.snapshotId] : [snapshot.snapshotId, previousId];
    const levels = new Map<string, ExpirationLevels>();
    for (const expiration of expirations) {
      const points = await this.deps.exposure.scopePoints(ids, { expirations: expiration });
      const after = levelsOf(points.get(snapshot.snapshotId));
      if (after !== null) levels.set(expiration, { before: previousId === null ? null : levelsOf(points.get(previousId)), after });
    }
    return levels;
  }

  /** The states and alerts of a newest snapshot against the positions and levels read before the turn, in the caller's transaction. */
  private store(turn: WriteTx, snapshot: NewestSnapshot, positions: OptionPositionInput[], levels: ReadonlyMap<string, ExpirationLevels>, today: string): ExposureEvent[] {
    const stored = this.states.forTicker(snapshot.symbol);
    // Nothing short and nothing remembered: no write at all (the common case for an index you do not trade).
    if (positions.length === 0 && stored.length === 0) return [];
    // A newer snapshot came in meanwhile: it is evaluated in its turn, against the states as they are.
    if (!this.isNewest(snapshot)) return [];
    const previous = new Map<string, PositionLevelState>(stored.map((row) => [row.key, { side: row.side === 'below' ? 'below' : 'above', near: row.near === 1 }]));
    const alerts: PositionAlertDraft[] = [];
    const states = new Map<string, PositionLevelState>();
    // Each expiration's shorts against that expiration's levels; the states of all of them replace the ticker's.
    for (const [expiration, { before, after }] of levels) {
      const evaluated = evaluatePositionAlerts(
        {
          ticker: snapshot.symbol,
          timestamp: snapshot.quoteTime,
          spotPrice: snapshot.spot,
          positions: positions.filter((p) => p.expiration === expiration),
          before,
          after,
          distancePct: this.deps.settings().positionAlertDistancePct,
        },
        previous,
      );
      alerts.push(...evaluated.alerts);
      for (const [key, state] of evaluated.states) states.set(key, state);
    }
    this.states.replace(
      turn,
      snapshot.symbol,
      [...states].map(([key, state]) => ({ ticker: snapshot.symbol, key, side: state.side, near: state.near ? 1 : 0, quote_time: snapshot.quoteTime })),
    );
    return alerts.flatMap((alert) => this.deps.exposure.eventStore.insert(turn, { ...alert, explanation: positionAlertText(alert) }, today) ?? []);
  }
}
