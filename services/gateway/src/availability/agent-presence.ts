import { type AgentInfo, IdentityMessages, type Presence, type PresenceStatus } from '@palaver/contracts';
import { type KeyValueStore, logger, type ServiceClient } from '@palaver/platform';

/** How long "online" lasts unless renewed: by another PUT, or every HEARTBEAT_MS while the agent's live feed is open. */
export const PRESENCE_TTL_SECONDS = 120;
const HEARTBEAT_MS = 60_000;

const agentKey = (agent: Pick<AgentInfo, 'projectId' | 'agentId'>) => `presence:agent:${agent.projectId}:${agent.agentId}`;
/** Set by every online agent of the project: one read tells whether anyone is there. */
const projectKey = (projectId: string) => `presence:project:${projectId}`;

/**
 * Agents' presence in the KV port (Redis when distributed, so every gateway sees it), each with a
 * TTL: an agent is away once it says so, or once nothing renewed its "online" for
 * PRESENCE_TTL_SECONDS (its inbox closed without a word, its live feed gone for about 2 minutes).
 */
export class AgentPresence {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly services: ServiceClient,
  ) {}

  async set(agent: AgentInfo, status: PresenceStatus): Promise<Presence> {
    if (status === 'online') {
      await Promise.all([
        this.kv.set(agentKey(agent), 'online', PRESENCE_TTL_SECONDS),
        this.kv.set(projectKey(agent.projectId), '1', PRESENCE_TTL_SECONDS),
      ]);
      return { status, expiresInSeconds: PRESENCE_TTL_SECONDS };
    }
    await this.kv.del(agentKey(agent));
    if (!(await this.othersOnline(agent.projectId))) await this.kv.del(projectKey(agent.projectId));
    return { status, expiresInSeconds: null };
  }

  /** Whether any agent of the project is online (one KV read). */
  async anyOnline(projectId: string): Promise<boolean> {
    return (await this.kv.get(projectKey(projectId))) !== null;
  }

  /**
   * An agent whose live feed opens is online (done when this resolves), and stays online while it
   * is open unless it says it is away; the returned function stops the renewals (the feed closed).
   */
  async whileFeedOpen(agent: AgentInfo): Promise<() => void> {
    const beat = async () => {
      try {
        if (await this.kv.expire(agentKey(agent), PRESENCE_TTL_SECONDS))
          await this.kv.set(projectKey(agent.projectId), '1', PRESENCE_TTL_SECONDS);
      } catch (err) {
        logger.warn({ err, agentId: agent.agentId }, 'agent presence heartbeat failed');
      }
    };
    try {
      await this.set(agent, 'online');
    } catch (err) {
      logger.warn({ err, agentId: agent.agentId }, 'agent presence could not be set online');
    }
    const timer = setInterval(beat, HEARTBEAT_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async othersOnline(projectId: string): Promise<boolean> {
    const { data } = await this.services.send(IdentityMessages.listAgents, { projectId });
    const states = await Promise.all(data.filter((a) => !a.revokedAt).map((a) => this.kv.get(agentKey({ projectId, agentId: a.id }))));
    return states.some((state) => state !== null);
  }
}
