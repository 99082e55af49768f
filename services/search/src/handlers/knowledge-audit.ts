import type { Actor, NewAuditEntry } from '@palaver/contracts';

/**
 * The audit entries of the knowledge commands: which document or source, and which fields,
 * never a document's text nor a source's full address (its query may carry a credential).
 */
interface Command {
  projectId: string;
  actor: Actor;
}

const entry = (req: Command, action: string, target: NewAuditEntry['target'], changes?: Record<string, unknown>): NewAuditEntry => ({
  projectId: req.projectId,
  actor: req.actor,
  action,
  target,
  ...(changes ? { changes } : {}),
});

export const documentEntry = (req: Command, action: string, documentId: string, changes?: Record<string, unknown>): NewAuditEntry =>
  entry(req, action, { type: 'document', id: documentId }, changes);

export const sourceEntry = (req: Command, action: string, sourceId: string, changes?: Record<string, unknown>): NewAuditEntry =>
  entry(req, action, { type: 'source', id: sourceId }, changes);
