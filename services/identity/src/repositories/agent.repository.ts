import { Inject, Injectable } from '@nestjs/common';
import type { AgentRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

/** An agent at rest: the listed record and the SHA-256 of its token (never the token). */
export type AgentDocument = Stored<AgentRecord> & { hash: string };

const toRecord = (doc: AgentDocument): AgentRecord => {
  const { hash: _hash, ...record } = doc;
  return fromDocument<AgentRecord>(record);
};

@Injectable()
export class AgentRepository {
  private readonly agents: Collection<AgentDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.agents = documents.collection<AgentDocument>('agents', [
      { keys: { hash: 1 }, unique: true },
      { keys: { projectId: 1, createdAt: 1 } },
    ]);
  }

  async insert(record: AgentRecord, hash: string): Promise<void> {
    await this.agents.insertOne({ ...toDocument(record), hash });
  }

  async findByHash(hash: string): Promise<AgentRecord | null> {
    const doc = await this.agents.findOne({ hash });
    return doc ? toRecord(doc) : null;
  }

  async findById(projectId: string, agentId: string): Promise<AgentRecord | null> {
    const doc = await this.agents.findOne({ _id: agentId, projectId });
    return doc ? toRecord(doc) : null;
  }

  async listByProject(projectId: string): Promise<AgentRecord[]> {
    const docs = await this.agents.find({ projectId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(toRecord);
  }

  /** Sets revokedAt on a live agent; null when the project has no such live agent. */
  async revoke(projectId: string, agentId: string, revokedAt: string): Promise<AgentRecord | null> {
    const doc = await this.agents.findOneAndUpdate({ _id: agentId, projectId, revokedAt: null }, { $set: { revokedAt } });
    return doc ? toRecord(doc) : null;
  }
}
