import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError, type KeyInfo, type Visitor } from '@palaver/contracts';
import { type Clock, Ports } from '@palaver/platform';
import { SessionService } from './session.service';
import { toVisitor, VisitorRepository } from './visitor.repository';

@Injectable()
export class VisitorService {
  constructor(
    @Inject(VisitorRepository) private readonly visitors: VisitorRepository,
    @Inject(SessionService) private readonly sessions: SessionService,
    @Inject(Ports.clock) private readonly clock: Clock,
  ) {}

  /** The anonymous visitor of this device in the key's project (created on first sight), with a fresh session. */
  async init(key: KeyInfo, saVid: string): Promise<{ created: boolean; sessionToken: string; visitor: Visitor }> {
    const { visitor, created } = await this.visitors.findOrInsert(key.projectId, saVid, () => ({
      _id: randomUUID(),
      projectId: key.projectId,
      saVid,
      type: 'anonymous',
      externalId: null,
      name: null,
      avatarUrl: null,
      createdAt: this.clock.now().toISOString(),
    }));
    const sessionToken = await this.sessions.issue({
      projectId: key.projectId,
      visitorId: visitor._id,
      keyId: key.keyId,
      assistantId: key.assistantId,
    });
    return { created, sessionToken, visitor: toVisitor(visitor) };
  }

  async get(projectId: string, visitorId: string): Promise<Visitor> {
    const visitor = await this.visitors.findById(projectId, visitorId);
    if (!visitor) throw new AppError('NOT_FOUND', `visitor ${visitorId} not found`, { resource: 'visitor', visitorId });
    return toVisitor(visitor);
  }
}
