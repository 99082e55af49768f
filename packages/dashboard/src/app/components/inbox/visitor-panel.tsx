import { agentApi } from '../../lib/api';
import type { VisitorContext } from '../../lib/inbox-types';
import { useAsync } from '../../lib/use-async';
import { describeUserAgent } from '../../lib/user-agent';
import { ExternalLink } from '../external-link';
import { Button, ErrorNotice, formatDate, Loading } from '../ui';

const Identity = ({ visitor }: { visitor: VisitorContext }) => {
  const { identity, contact } = visitor;
  if (identity.verified)
    return (
      <>
        <dt>Identity</dt>
        <dd>
          <span class="badge badge-verified">verified</span> {identity.name ?? identity.userId}
          {identity.email ? <div class="small">{identity.email}</div> : null}
        </dd>
      </>
    );
  return (
    <>
      <dt>Identity</dt>
      <dd>Anonymous visitor</dd>
      {contact ? (
        <>
          <dt>Contact</dt>
          <dd>{contact.name ? `${contact.name} <${contact.email}>` : contact.email}</dd>
        </>
      ) : null}
    </>
  );
};

/** Who the visitor is and where they are: the page, their browser, identity, earlier conversations. */
export const VisitorPanel = ({
  token,
  conversationId,
  projectId,
  onHide,
}: {
  token: string;
  conversationId: string;
  projectId: string;
  onHide: () => void;
}) => {
  const visitor = useAsync(
    (signal) => agentApi<VisitorContext>(token, `/conversations/${conversationId}/visitor`, { signal }),
    [token, conversationId],
  );
  const data = visitor.data;
  return (
    <section class="visitor-panel" aria-labelledby="visitor-heading">
      <div class="list-heading">
        <h2 id="visitor-heading" class="pane-title">
          Visitor
        </h2>
        <Button variant="secondary" class="button-small visitor-hide" onClick={onHide} aria-label="Hide the visitor panel">
          Hide
        </Button>
      </div>
      {visitor.loading && !data ? <Loading /> : null}
      <ErrorNotice error={visitor.error} onRetry={visitor.reload} />
      {data ? (
        <>
          <dl class="facts facts-stacked">
            <Identity visitor={data} />
            <dt>Page</dt>
            <dd>
              {data.page.title ? <div>{data.page.title}</div> : null}
              {data.page.url ? <ExternalLink url={data.page.url} /> : data.page.title ? null : 'Not known'}
            </dd>
            <dt>Browser</dt>
            <dd>{describeUserAgent(data.userAgent) ?? 'Not known'}</dd>
          </dl>
          <h3 class="pane-subtitle">Previous conversations</h3>
          {data.previousConversations.length === 0 ? (
            <p class="muted small">None</p>
          ) : (
            <ul class="previous-list">
              {data.previousConversations.map((c) => (
                <li key={c.id}>
                  <a href={`/dashboard/projects/${projectId}/conversations/${c.id}`}>{c.title ?? 'Untitled conversation'}</a>
                  <div class="muted small">
                    {c.status} · {formatDate(c.lastInteractionAt)}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
    </section>
  );
};
