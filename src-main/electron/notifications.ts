/**
 * Position alerts as system notifications (issue 18): each position event the server stores is shown while the
 * setting notifyPositionAlerts is on (read at each event, so Settings takes effect at once). Kept thin: the words are
 * the event's own explanation.
 */
import { Notification } from 'electron';
import type { ExposureEvent } from '../services/exposure/events';

const LEVEL_WORDS = { gammaFlip: 'gamma flip', callWall: 'call wall', putWall: 'put wall' } as const;

export interface NotifierSource {
  onEvent(listener: (event: ExposureEvent) => void): () => void;
}

/** Subscribes; returns the unsubscribe. `onClick` brings the window forward. */
export function notifyPositionAlerts(source: NotifierSource, enabled: () => boolean, onClick: () => void): () => void {
  return source.onEvent((event) => {
    if (event.eventType !== 'position' || !enabled() || !Notification.isSupported()) return;
    const verb = event.alert === 'crossed' ? 'crossed' : 'near';
    const notification = new Notification({
      title: `${event.ticker} ${LEVEL_WORDS[event.level]} ${verb} your short ${event.strike} ${event.right === 'P' ? 'put' : 'call'}`,
      body: event.explanation ?? '',
    });
    notification.on('click', onClick);
    notification.show();
  });
}
