import type { Actor } from '@palaver/contracts';
import type { AuditService } from '../services/audit.service';

/**
 * Waits for a change to one thing of a project, then records it in the audit log against that
 * thing (its id taken from what the change answered), with what `changesOf` says of it.
 */
export const audited = async <T extends { id: string }>(
  audit: AuditService,
  command: { actor: Actor; projectId: string },
  action: string,
  targetType: string,
  change: Promise<T>,
  changesOf?: (changed: T) => Record<string, unknown>,
): Promise<T> => {
  const changed = await change;
  await audit.record(command.actor, command.projectId, action, { type: targetType, id: changed.id }, changesOf?.(changed));
  return changed;
};
