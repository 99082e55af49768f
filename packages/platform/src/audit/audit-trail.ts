import { AccountMessages, type NewAuditEntry } from '@palaver/contracts';
import { logger } from '../logger/logger';
import type { ServiceClient } from '../transport/service-client';

/**
 * Appends a change to the audit log (the identity service keeps it). Called once the change is
 * made: a failure to record it is logged, not answered, since the change itself stands and a
 * retry would make it twice. Never pass a secret or message text in `changes`.
 */
export const recordAudit = async (services: ServiceClient, entry: NewAuditEntry): Promise<void> => {
  try {
    await services.send(AccountMessages.appendAudit, entry);
  } catch (err) {
    logger.error({ err, action: entry.action, target: entry.target }, 'audit entry not recorded');
  }
};
