import { DEFAULT_OFFLINE_MESSAGE, type HumanAgentsAvailability, type ProjectRecord } from '@palaver/contracts';
import type { Clock } from '@palaver/platform';
import type { AgentPresence } from './agent-presence';
import { isWithinOpeningHours } from './opening-hours';

/** Whether a person can answer a visitor of the project now: handoff on, within the hours (if set), an agent online. */
export class TeamAvailability {
  constructor(
    private readonly presence: AgentPresence,
    private readonly clock: Clock,
  ) {}

  async of(project: ProjectRecord): Promise<HumanAgentsAvailability> {
    if (!project.handoff.enabled) return { enabled: false, available: false };
    if (project.availability && !isWithinOpeningHours(project.availability, this.clock.now())) return { enabled: true, available: false };
    return { enabled: true, available: await this.presence.anyOnline(project.id) };
  }

  /** The notice a visitor asking for a person gets when nobody can answer; null when someone can (or handoff is off). */
  async offlineNotice(project: ProjectRecord): Promise<string | null> {
    const { enabled, available } = await this.of(project);
    return enabled && !available ? (project.handoff.offlineMessage ?? DEFAULT_OFFLINE_MESSAGE) : null;
  }
}
