import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, agentApi, agentFetch } from '../../lib/api';
import { type FollowState, follow } from '../../lib/follow';
import { TYPING_TTL_MS, type VisitorTypingEvent } from '../../lib/inbox-types';
import type { AgentConversation, AgentEvent, AgentInfo, HeldConversations } from '../../lib/types';
import { useAsync } from '../../lib/use-async';

/**
 * The queue and the conversations this agent holds, kept current by the agents' live feed; also
 * which visitors are typing (until the signal's time to live passes or their message arrives) and
 * a `version` bumped whenever something changed that an open conversation shows.
 */
export const useInboxFeed = ({
  token,
  me,
  onStop,
  onWaiting,
}: {
  token: string;
  me: AgentInfo;
  onStop: () => void;
  onWaiting: (conversation: AgentConversation) => void;
}) => {
  const queue = useAsync((signal) => agentApi<{ data: AgentConversation[] }>(token, '/queue', { signal }), [token]);
  const [mine, setMine] = useState<Map<string, AgentConversation>>(new Map());
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<FollowState>('connecting');
  const [error, setError] = useState<unknown>(null);
  const [typing, setTyping] = useState<Map<string, number>>(new Map());
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const waiting = useRef(onWaiting);
  waiting.current = onWaiting;

  const typingUntil = (conversationId: string, until: number | null) =>
    setTyping((current) => {
      const next = new Map(current);
      if (until === null) next.delete(conversationId);
      else next.set(conversationId, until);
      return next;
    });

  // Drops the typing signals whose time passed.
  useEffect(() => {
    if (typing.size === 0) return;
    const soonest = Math.min(...typing.values());
    const timer = setTimeout(
      () => setTyping((current) => new Map([...current].filter(([, until]) => until > Date.now()))),
      Math.max(0, soonest - Date.now()) + 20,
    );
    return () => clearTimeout(timer);
  }, [typing]);

  const refreshSoon = () => {
    clearTimeout(reloadTimer.current);
    reloadTimer.current = setTimeout(() => {
      queue.reload();
      setVersion((v) => v + 1);
    }, 200);
  };

  useEffect(() => {
    const stop = follow(
      async (after, signal) => {
        // Without an event seen yet (the first connection, or a drop before any): what this agent
        // holds now, and the feed from the position read before it, instead of its whole history.
        let from = after;
        if (from === undefined) {
          const held = await agentApi<HeldConversations>(token, '/conversations', { signal });
          if (!held) throw new Error('the API sent no conversations');
          setMine(new Map(held.data.map((conversation) => [conversation.id, conversation])));
          queue.reload();
          from = held.feedCursor;
        }
        return agentFetch(token, `/events?after=${encodeURIComponent(from)}`, { signal });
      },
      {
        onMessage: (data, _id, name) => {
          if (name === 'typing') {
            const signal = JSON.parse(data) as VisitorTypingEvent;
            if (signal.by === 'visitor') typingUntil(signal.conversationId, Date.now() + TYPING_TTL_MS);
            return;
          }
          const event = JSON.parse(data) as AgentEvent;
          refreshSoon();
          const conversation = event.conversation;
          if (!conversation) return;
          if (event.type === 'message.visitor') typingUntil(conversation.id, null);
          if (event.type === 'handoff.requested') waiting.current(conversation);
          setMine((held) => {
            const next = new Map(held);
            if (conversation.handoff === 'claimed' && conversation.humanAgent?.id === me.agentId && conversation.status === 'open')
              next.set(conversation.id, conversation);
            else next.delete(conversation.id);
            return next;
          });
        },
        onState: (next, err) => {
          setState(next);
          setError(next === 'live' ? null : (err ?? null));
          if (err instanceof ApiError && err.status === 401) onStop();
        },
      },
    );
    return () => {
      stop();
      clearTimeout(reloadTimer.current);
    };
  }, [token, me.agentId]);

  const changed = () => {
    queue.reload();
    setVersion((v) => v + 1);
  };
  const hold = (conversation: AgentConversation) => setMine((held) => new Map(held).set(conversation.id, conversation));
  return { queue, mine, hold, version, changed, state, error, typing };
};
