/**
 * The live events stream of the Events page. Each connection opens with a fresh stream ticket (client.ts
 * `eventsStreamUrl`): a ticket opens one stream, so EventSource's own reconnect, which presents the same URL again,
 * would be refused; a dropped stream is closed and opened anew with a new ticket instead.
 */
import { ApiError, type ApiClient, type RouteInput } from './client';

/** The scope of a stream: the query of `GET /gex/events/stream` (its ticket is the client's to add). */
export type StreamQuery = RouteInput<'GET /gex/events/stream'>['query'];

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'off';

export interface StreamHandlers {
  onState: (state: LiveState) => void;
  /** Each message (named or not): its data text. */
  onData: (data: string) => void;
  /** The event names the stream may use. */
  names: readonly string[];
}

const RETRY_MS = 3000;

/** Opens the stream and keeps it open until the returned function is called. */
export function openEventStream(api: ApiClient, query: StreamQuery, handlers: StreamHandlers): () => void {
  let source: EventSource | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const controller = new AbortController();
  const onMessage = (message: MessageEvent<string>) => handlers.onData(message.data);

  const open = () => {
    retry = null;
    handlers.onState(source === null ? 'connecting' : 'reconnecting');
    api.streamUrl('GET /gex/events/stream', { query }, { signal: controller.signal }).then(
      (url) => {
        if (controller.signal.aborted) return;
        const current = new EventSource(url);
        source = current;
        current.onopen = () => handlers.onState('live');
        current.onerror = () => {
          current.close();
          if (controller.signal.aborted) return;
          handlers.onState('reconnecting');
          retry = setTimeout(open, RETRY_MS);
        };
        current.onmessage = onMessage;
        for (const name of handlers.names) current.addEventListener(name, onMessage as EventListener);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // A refused key will not get better by retrying: the page's 401 path offers Change key.
        if (error instanceof ApiError && error.status === 401) {
          handlers.onState('off');
          return;
        }
        handlers.onState('reconnecting');
        retry = setTimeout(open, RETRY_MS);
      },
    );
  };
  open();
  return () => {
    controller.abort();
    if (retry !== null) clearTimeout(retry);
    source?.close();
  };
}
