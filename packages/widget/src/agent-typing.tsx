/** @jsxImportSource preact */
import type { HumanAgent } from '@palaver/contracts';

/**
 * "Ada is typing…" under the transcript while the agent types. The live region stays in place
 * when empty, so its line is announced once when it appears (politely), and neither the agent's
 * repeated signals nor the dots' animation announce anything more.
 */
export const AgentTyping = ({ agent }: { agent: HumanAgent | null }) => (
  <div class="palaver-agent-typing" role="status" aria-live="polite">
    {agent && (
      <>
        {agent.image ? (
          <img class="palaver-agent-typing-avatar" src={agent.image} alt="" />
        ) : (
          <span class="palaver-agent-typing-avatar" aria-hidden="true">
            {(agent.name ?? 'A').slice(0, 1).toUpperCase()}
          </span>
        )}
        <span>{`${agent.name ?? 'A team member'} is typing…`}</span>
        <span class="palaver-typing" aria-hidden="true">
          <span />
          <span />
          <span />
        </span>
      </>
    )}
  </div>
);
