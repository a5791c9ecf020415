/**
 * Position alerts become system notifications in the desktop app (issue 18), with `electron` mocked (Electron cannot
 * be launched on the build machines): one per position event while notifyPositionAlerts is on, none for flip and
 * wall events or with the setting off; a click brings the window forward.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ExposureEvent } from '../../../../src-main/services/exposure/events';

const shown = vi.hoisted(() => ({ list: [] as Array<{ title: string; body: string; click: (() => void) | null }>, supported: true }));

vi.mock('electron', () => {
  class Notification {
    static isSupported() {
      return shown.supported;
    }
    private readonly entry: { title: string; body: string; click: (() => void) | null };
    constructor(options: { title: string; body: string }) {
      this.entry = { ...options, click: null };
    }
    on(event: string, handler: () => void) {
      if (event === 'click') this.entry.click = handler;
    }
    show() {
      shown.list.push(this.entry);
    }
  }
  return { Notification };
});

const { notifyPositionAlerts } = await import('../../../../src-main/electron/notifications');

const positionEvent: ExposureEvent = {
  id: 'ev_1',
  ticker: 'SPX',
  eventType: 'position',
  expiration: '2026-02-20',
  timestamp: '2026-02-02T21:00:00.000Z',
  dte: 18,
  eventDte: 18,
  accountId: 'a1',
  symbol: 'SPXW  260220P04700000',
  strike: 4700,
  right: 'P',
  quantity: -1,
  level: 'putWall',
  alert: 'within',
  previousValue: 4600,
  newValue: 4675,
  gapPct: -0.53,
  distancePct: 1,
  spotPrice: 4800,
  explanation: 'SPX put wall 4,600 → 4,675 came within 1% of your short 4,700 put (2026-02-20): 0.5% below',
};
const wallEvent: ExposureEvent = { id: 'ev_2', ticker: 'SPX', eventType: 'wall', expiration: '2026-02-20', timestamp: '2026-02-02T21:00:00.000Z', dte: 18, eventDte: 18, wallType: 'put', previousStrike: 4600, newStrike: 4675, spotPrice: 4800 };

function source() {
  const listeners: Array<(event: ExposureEvent) => void> = [];
  return {
    onEvent: (listener: (event: ExposureEvent) => void) => {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    send: (event: ExposureEvent) => listeners.forEach((l) => l(event)),
    count: () => listeners.length,
  };
}

describe('position alert notifications', () => {
  it('shows one notification per position event while the setting is on; a click shows the window', () => {
    shown.list.length = 0;
    const events = source();
    let enabled = true;
    const focus = vi.fn();
    const stop = notifyPositionAlerts(events, () => enabled, focus);
    events.send(positionEvent);
    events.send(wallEvent);
    expect(shown.list.map((n) => [n.title, n.body])).toEqual([['SPX put wall near your short 4700 put', positionEvent.explanation]]);
    shown.list[0]?.click?.();
    expect(focus).toHaveBeenCalledTimes(1);

    enabled = false;
    events.send(positionEvent);
    expect(shown.list, 'the setting is read at each event').toHaveLength(1);

    stop();
    expect(events.count()).toBe(0);
  });

  it('shows nothing where the system has no notifications', () => {
    shown.list.length = 0;
    shown.supported = false;
    const events = source();
    notifyPositionAlerts(events, () => true, () => undefined);
    events.send(positionEvent);
    expect(shown.list).toEqual([]);
    shown.supported = true;
  });
});
