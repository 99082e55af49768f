import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Customer, MAX_CUSTOMER_ATTRIBUTES, type UpsertCustomerBody } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { newIdentifiedVisitor, type VisitorDocument, VisitorRepository } from '../repositories/visitor.repository';
import { ProjectService } from './project.service';

const toCustomer = (doc: VisitorDocument): Customer => ({
  id: doc._id,
  attributes: doc.attributes ?? {},
  createdAt: doc.createdAt,
  projectId: doc.projectId,
  name: doc.name,
  email: doc.email ?? null,
  appUserId: doc.externalId ?? '',
});

/** The stored attributes with the new ones merged in; VALIDATION_ERROR past MAX_CUSTOMER_ATTRIBUTES in all. */
const mergedAttributes = (stored: Record<string, string>, added: Record<string, string>): Record<string, string> => {
  const merged = { ...stored, ...added };
  const count = Object.keys(merged).length;
  if (count > MAX_CUSTOMER_ATTRIBUTES)
    throw new AppError('VALIDATION_ERROR', `a customer has at most ${MAX_CUSTOMER_ATTRIBUTES} attributes`, {
      field: 'attributes',
      reason: `at most ${MAX_CUSTOMER_ATTRIBUTES} attributes in all (${count} once merged)`,
    });
  return merged;
};

/**
 * Surface B's customers are the project's identified visitors, found by their external id (the
 * appUserId). `POST /v2/identity/init` reaches the same person only with a user token whose `sub`
 * is the appUserId (signed with the project's identity secret), and then both surfaces show one
 * history; a device id (`saVid`) only ever names an anonymous visitor.
 */
@Injectable()
export class CustomerService {
  constructor(
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
    @Inject(ProjectService) private readonly projects: ProjectService,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  /** Creates the customer or updates the fields given (attributes merge key by key). */
  async upsert(projectId: string, appUserId: string, body: UpsertCustomerBody): Promise<Customer> {
    await this.projects.get(projectId);
    const { visitor } = await this.visitors.findOrInsertIdentified(projectId, appUserId, () =>
      newIdentifiedVisitor(randomUUID(), projectId, appUserId, this.clock.now().toISOString()),
    );
    const set: Partial<VisitorDocument> = {};
    if (body.name !== undefined) set.name = body.name;
    if (body.email !== undefined) set.email = body.email;
    if (body.attributes !== undefined) set.attributes = mergedAttributes(visitor.attributes ?? {}, body.attributes);
    if (Object.keys(set).length === 0) return toCustomer(visitor);
    const updated = await this.visitors.set(projectId, visitor._id, set);
    if (!updated) throw new Error(`visitor ${visitor._id} vanished`);
    return toCustomer(updated);
  }

  /** NOT_FOUND when no identified visitor of the project has this appUserId. */
  async get(projectId: string, appUserId: string): Promise<Customer> {
    const visitor = await this.visitors.findIdentified(projectId, appUserId);
    if (!visitor) throw new AppError('NOT_FOUND', `customer ${appUserId} not found`, { resource: 'customer', appUserId });
    return toCustomer(visitor);
  }
}
