import { createParser } from 'eventsource-parser';

export type FollowState = 'connecting' | 'live' | 'reconnecting' | 'stopped';

const RETRY_MS = 2000;

/**
 * Tails an admin text/event-stream. EventSource cannot send the bearer token, so this reads the
 * stream with fetch (`open` makes the request, after the given event id); after a drop it
 * reconnects after the last event it saw and resumes where it was.
 */
export const follow = (
  open: (after: string | undefined, signal: AbortSignal) => Promise<Response>,
  handlers: {
    onMessage: (data: string, id: string | undefined, event: string | undefined) => void;
    onState: (state: FollowState, error?: unknown) => void;
  },
): (() => void) => {
  const controller = new AbortController();
  let lastEventId: string | undefined;

  const connect = async (): Promise<void> => {
    const response = await open(lastEventId, controller.signal);
    if (!response.body) throw new Error('the server sent no stream');
    handlers.onState('live');
    const parser = createParser({
      onEvent: (event) => {
        if (event.id) lastEventId = event.id;
        handlers.onMessage(event.data, event.id, event.event);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(value);
    }
  };

  void (async () => {
    handlers.onState('connecting');
    while (!controller.signal.aborted) {
      try {
        await connect();
      } catch (err) {
        if (controller.signal.aborted) break;
        handlers.onState('reconnecting', err);
        if ((err as { status?: number }).status === 401) break;
      }
      if (controller.signal.aborted) break;
      handlers.onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    handlers.onState('stopped');
  })();

  return () => controller.abort();
};
