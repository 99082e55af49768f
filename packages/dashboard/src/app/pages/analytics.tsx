import { useEffect, useState } from 'preact/hooks';
import { FeedbackChart } from '../components/feedback-chart';
import { Stat } from '../components/stat';
import { Button, Card, Empty, ErrorNotice, formatDate, ListStatus, LoadStatus, PageHeader } from '../components/ui';
import { adminFetch, api } from '../lib/api';
import { type FollowState, follow } from '../lib/follow';
import { useProject } from '../lib/project-context';
import type { AnalyticsEvent, DislikedAnswer, FeedbackSummary } from '../lib/types';
import { useAsync } from '../lib/use-async';

const TAIL_SIZE = 50;

const describe = (event: AnalyticsEvent): string => {
  const d = event.data as Record<string, unknown>;
  switch (event.type) {
    case 'feedback.given':
      return `${d.feedback === 'like' ? 'like' : 'dislike'} on message ${String(d.messageId).slice(0, 8)}`;
    case 'feedback.removed':
      return `feedback removed from message ${String(d.messageId).slice(0, 8)}`;
    case 'reply.failed':
      return `reply failed: ${String(d.error)}`;
    case 'conversation.closed':
      return `closed${d.closeReason ? `: ${String(d.closeReason)}` : ''}`;
    case 'conversation.started':
      return d.pageUrl ? `started on ${String(d.pageUrl)}` : 'started';
    default:
      return '';
  }
};

const LiveTail = () => {
  const { project } = useProject();
  const [events, setEvents] = useState<AnalyticsEvent[]>([]);
  const [state, setState] = useState<FollowState>('stopped');
  const [error, setError] = useState<unknown>(null);
  const [running, setRunning] = useState(true);

  useEffect(() => {
    if (!running) return;
    // Start at the current end of the feed: the tail shows what happens from now on.
    let stop = () => {};
    let cancelled = false;
    void api<{ nextCursor: string | null; data: AnalyticsEvent[] }>(`/projects/${project.id}/events?limit=500`)
      .then(async (page) => {
        let cursor = page.nextCursor;
        let last = page.data.at(-1)?.cursor ?? null;
        while (cursor && page.data.length === 500 && !cancelled) {
          page = await api(`/projects/${project.id}/events?limit=500&after=${encodeURIComponent(cursor)}`);
          last = page.data.at(-1)?.cursor ?? last;
          cursor = page.nextCursor;
        }
        if (cancelled) return;
        const eventsPath = `/projects/${project.id}/events?follow=true`;
        stop = follow(
          (after, signal) =>
            adminFetch(`${eventsPath}${(after ?? last) ? `&after=${encodeURIComponent((after ?? last)!)}` : ''}`, { signal }),
          {
            onMessage: (data) => setEvents((list) => [JSON.parse(data) as AnalyticsEvent, ...list].slice(0, TAIL_SIZE)),
            onState: (next, err) => {
              setState(next);
              if (err) setError(err);
              if (next === 'live') setError(null);
            },
          },
        );
      })
      .catch(setError);
    return () => {
      cancelled = true;
      stop();
    };
  }, [project.id, running]);

  return (
    <Card
      title="Live events"
      actions={
        <div class="row">
          <span class={`live-dot live-${running ? state : 'stopped'}`} aria-live="polite">
            {running ? state : 'paused'}
          </span>
          <Button variant="secondary" class="button-small" onClick={() => setRunning((r) => !r)}>
            {running ? 'Pause' : 'Resume'}
          </Button>
        </div>
      }
    >
      <ErrorNotice error={error} />
      {events.length === 0 ? (
        <Empty title="Waiting for events">New conversations, messages, replies and feedback appear here as they happen.</Empty>
      ) : null}
      <ol class="event-tail" aria-live="polite">
        {events.map((e) => (
          <li key={e.eventId}>
            <span class="muted small">{new Date(e.occurredAt).toLocaleTimeString()}</span> <code>{e.type}</code> {describe(e)}{' '}
            <a href={`/dashboard/projects/${project.id}/conversations/${e.conversationId}`}>conversation</a>
          </li>
        ))}
      </ol>
    </Card>
  );
};

export const AnalyticsPage = () => {
  const { project } = useProject();
  const summary = useAsync((signal) => api<FeedbackSummary>(`/projects/${project.id}/analytics/feedback`, { signal }), [project.id]);
  const disliked = useAsync(
    (signal) => api<{ data: DislikedAnswer[] }>(`/projects/${project.id}/analytics/disliked-answers?limit=10`, { signal }),
    [project.id],
  );
  const s = summary.data;
  return (
    <>
      <PageHeader
        title="Feedback"
        description="What visitors think of the answers: likes and dislikes count each message's latest value."
        actions={
          <Button
            variant="secondary"
            onClick={() => {
              summary.reload();
              disliked.reload();
            }}
          >
            Refresh
          </Button>
        }
      />
      <Card title="Over time">
        <LoadStatus state={summary} />
        {s ? (
          <>
            <div class="stats">
              <Stat value={s.likes} label="likes" />
              <Stat value={s.dislikes} label="dislikes" />
              <Stat value={s.removals} label="removed" />
            </div>
            {s.byDay.length ? (
              <FeedbackChart days={s.byDay} />
            ) : (
              <Empty title="No feedback yet">Visitors' likes and dislikes will be charted here.</Empty>
            )}
          </>
        ) : null}
      </Card>
      <Card title="Most disliked answers">
        <ListStatus state={disliked} empty={<Empty title="No disliked answers">Good news.</Empty>} />
        <ol class="item-list">
          {disliked.data?.data.map((d) => (
            <li key={d.messageId} class="item">
              <div class="item-main">
                {d.question ? <p class="item-title">Q: {d.question}</p> : null}
                <p class="item-text">{d.answer}</p>
                <p class="muted small">
                  {d.dislikes} dislike{d.dislikes === 1 ? '' : 's'} · last {formatDate(d.lastDislikedAt)} ·{' '}
                  <a href={`/dashboard/projects/${project.id}/conversations/${d.conversationId}`}>open the conversation</a>
                </p>
              </div>
            </li>
          ))}
        </ol>
      </Card>
      <LiveTail />
    </>
  );
};
