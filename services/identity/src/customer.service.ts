import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type Customer, type UpsertCustomerBody } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { ProjectService } from './project.service';
import { type VisitorDocument, VisitorRepository } from './visitor.repository';

const toCustomer = (doc: VisitorDocument): Customer => ({
  id: doc._id,
  attributes: doc.attributes ?? {},
  createdAt: doc.createdAt,
  projectId: doc.projectId,
  name: doc.name,
  email: doc.email ?? null,
  appUserId: doc.externalId ?? doc.saVid,
});

/**
 * Surface B's customers are the project's identified visitors: the appUserId is both their
 * external id and their device id, so `POST /v2/identity/init` with `saVid = appUserId`
 * opens a session on the same person and both surfaces show one history.
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
    const { visitor } = await this.visitors.findOrInsert(projectId, appUserId, () => ({
      _id: randomUUID(),
      projectId,
      saVid: appUserId,
      type: 'identified',
      externalId: appUserId,
      name: null,
      avatarUrl: null,
      createdAt: this.clock.now().toISOString(),
      email: null,
      attributes: {},
    }));
    const set: Partial<VisitorDocument> = { type: 'identified', externalId: appUserId };
    if (body.name !== undefined) set.name = body.name;
    if (body.email !== undefined) set.email = body.email;
    if (body.attributes !== undefined) set.attributes = { ...(visitor.attributes ?? {}), ...body.attributes };
    const updated = await this.visitors.set(projectId, visitor._id, set);
    if (!updated) throw new Error(`visitor ${visitor._id} vanished`);
    return toCustomer(updated);
  }

  /** NOT_FOUND when no visitor of the project has this appUserId. */
  async get(projectId: string, appUserId: string): Promise<Customer> {
    const visitor = await this.visitors.findBySaVid(projectId, appUserId);
    if (!visitor) throw new AppError('NOT_FOUND', `customer ${appUserId} not found`, { resource: 'customer', appUserId });
    return toCustomer(visitor);
  }
}
