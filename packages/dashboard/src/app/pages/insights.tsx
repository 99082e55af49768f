import { useMemo, useState } from 'preact/hooks';
import { TextAreaField, TextField } from '../components/fields';
import { RateChart } from '../components/rate-chart';
import { Stat } from '../components/stat';
import {
  Button,
  Card,
  Empty,
  ErrorNotice,
  Form,
  formatDate,
  ListStatus,
  LoadStatus,
  Notice,
  PageHeader,
  useSubmit,
} from '../components/ui';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { InsightsSummary, Qna, UnansweredGroup } from '../lib/types';
import { useAsync } from '../lib/use-async';

const RANGES = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
] as const;
type RangeDays = (typeof RANGES)[number][0];

const DAY_MS = 86_400_000;

const duration = (ms: number | null): string => {
  if (ms === null) return '—';
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
};

const Summary = ({ summary }: { summary: InsightsSummary }) => (
  <>
    <div class="stats">
      <Stat value={summary.conversations} label="conversations" />
      <Stat value={summary.messages} label="messages" />
      <Stat value={summary.resolvedWithoutHuman} label="resolved without a person" />
      <Stat
        value={summary.csat.average === null ? '—' : summary.csat.average.toFixed(1)}
        label={`CSAT (${summary.csat.responses} ratings)`}
      />
      <Stat value={duration(summary.medianFirstAgentReplyMs)} label="median first agent reply" />
    </div>
    {summary.conversations === 0 ? (
      <Empty title="No conversations in this period">The figures fill in as visitors chat.</Empty>
    ) : (
      <RateChart
        title="Rates of the period"
        rates={[
          { label: 'Resolved without a person', value: summary.resolvedWithoutHuman / summary.conversations, tone: 'good' },
          { label: 'Handed to a person', value: summary.handoffRate, tone: 'neutral' },
          { label: 'Liked answers', value: summary.likeRate, tone: 'good' },
          { label: 'Satisfaction (CSAT / 5)', value: summary.csat.average === null ? null : summary.csat.average / 5, tone: 'good' },
        ]}
      />
    )}
  </>
);

/** One group of unanswered questions, with its "Answer" form opened in place. */
const UnansweredItem = ({ group, onAnswered }: { group: UnansweredGroup; onAnswered: (qna: Qna) => void }) => {
  const { project } = useProject();
  const [open, setOpen] = useState(false);
  const [question, setQuestion] = useState(group.question);
  const [answer, setAnswer] = useState('');
  const submit = useSubmit(async () => {
    const qna = await api<Qna>(`/projects/${project.id}/insights/unanswered/${group.id}/answer`, {
      method: 'POST',
      body: { question: question.trim(), answer: answer.trim() },
    });
    onAnswered(qna);
  });
  const first = group.examples[0];
  return (
    <li class="item">
      <div class="item-main">
        <p class="item-title">{group.question}</p>
        <p class="muted small">
          asked {group.count} time{group.count === 1 ? '' : 's'} · last {formatDate(group.lastAskedAt)}
          {first ? (
            <>
              {' '}
              · <a href={`/dashboard/projects/${project.id}/conversations/${first.conversationId}`}>an example conversation</a>
            </>
          ) : null}
        </p>
        {open ? (
          <Form class="form-grid unanswered-answer" onSubmit={submit.run}>
            <TextField label="Question" required maxLength={2000} value={question} onValue={setQuestion} />
            <TextAreaField
              label="Answer"
              hint="Saved as a Q&A entry: visitors asking this get this answer."
              required
              rows={3}
              maxLength={20000}
              value={answer}
              onValue={setAnswer}
            />
            <ErrorNotice error={submit.error} />
            <div class="row">
              <Button variant="secondary" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" busy={submit.busy} disabled={!question.trim() || !answer.trim()}>
                Save the answer
              </Button>
            </div>
          </Form>
        ) : null}
      </div>
      {open ? null : (
        <Button variant="secondary" aria-label={`Answer: ${group.question}`} onClick={() => setOpen(true)}>
          Answer
        </Button>
      )}
    </li>
  );
};

export const InsightsPage = () => {
  const { project } = useProject();
  const [days, setDays] = useState<RangeDays>('30');
  const [answered, setAnswered] = useState<Qna | null>(null);
  const range = useMemo(() => {
    const to = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS);
    return `from=${new Date(to.getTime() - Number(days) * DAY_MS).toISOString()}&to=${to.toISOString()}`;
  }, [days]);
  const summary = useAsync(
    (signal) => api<InsightsSummary>(`/projects/${project.id}/insights/summary?${range}`, { signal }),
    [project.id, range],
  );
  const unanswered = useAsync(
    (signal) => api<{ data: UnansweredGroup[] }>(`/projects/${project.id}/insights/unanswered?${range}`, { signal }),
    [project.id, range],
  );
  return (
    <>
      <PageHeader
        title="Insights"
        description="How the assistant does, and the questions it could not answer."
        actions={
          <div class="range-picker" role="group" aria-label="Period">
            {RANGES.map(([value, label]) => (
              <Button
                key={value}
                variant={value === days ? 'primary' : 'secondary'}
                aria-pressed={value === days}
                onClick={() => setDays(value)}
              >
                {label}
              </Button>
            ))}
          </div>
        }
      />
      <Card title="Summary">
        <LoadStatus state={summary} />
        {summary.data ? <Summary summary={summary.data} /> : null}
      </Card>
      <Card title="Unanswered questions">
        <p class="muted">
          Questions the assistant declined, found no knowledge for, or whose answer a visitor disliked, grouped by meaning. Answer one to
          add it to the Q&A.
        </p>
        {answered ? (
          <Notice tone="success">
            Added to the Q&A: “{answered.question}”. <a href={`/dashboard/projects/${project.id}/qna`}>See the Q&A</a>
          </Notice>
        ) : null}
        <ListStatus state={unanswered} empty={<Empty title="Nothing unanswered">Every question in this period got an answer.</Empty>} />
        <ol class="item-list">
          {unanswered.data?.data.map((group) => (
            <UnansweredItem
              key={group.id}
              group={group}
              onAnswered={(qna) => {
                setAnswered(qna);
                unanswered.setData({ data: (unanswered.data?.data ?? []).filter((g) => g.id !== group.id) });
              }}
            />
          ))}
        </ol>
      </Card>
    </>
  );
};
