import type { Message } from '../lib/types';
import { formatDate } from './ui';

const ROLE_LABEL = { user: 'Visitor', assistant: 'Assistant', human_agent: 'Agent' } as const;

export const textOf = (message: Message): string => message.parts.map((p) => p.text).join('');

/** A conversation's messages as a transcript (text only: model output is never rendered as HTML). */
export const MessageList = ({ messages }: { messages: Message[] }) => (
  <ol class="transcript">
    {messages.map((m) => {
      const agent = typeof m.metadata === 'object' ? m.metadata.humanAgent?.name : null;
      return (
        <li key={m.id} class={`turn turn-${m.role}`}>
          <div class="turn-meta">
            <strong>{m.role === 'human_agent' && agent ? agent : ROLE_LABEL[m.role]}</strong>
            <span class="muted small">{formatDate(m.createdAt)}</span>
            {m.feedback ? <span class={`badge badge-${m.feedback}`}>{m.feedback === 'like' ? 'liked' : 'disliked'}</span> : null}
            {m.status === 'error' ? <span class="badge badge-danger">failed</span> : null}
          </div>
          <p class="turn-text">{textOf(m)}</p>
        </li>
      );
    })}
  </ol>
);
