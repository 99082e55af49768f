import { Inject, Injectable } from '@nestjs/common';
import type { AgentRecord } from '@palaver/contracts';
import { type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';
import { ProjectCredentialRepository } from './project-credential.repository';

/** An agent at rest: the listed record and the SHA-256 of its token (never the token). */
export type AgentDocument = Stored<AgentRecord> & { hash: string };

const toRecord = ({ hash: _hash, ...record }: AgentDocument): AgentRecord => fromDocument<AgentRecord>(record);

@Injectable()
export class AgentRepository extends ProjectCredentialRepository<AgentRecord, AgentDocument> {
  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    super(documents, 'agents', toRecord);
  }

  async insert(record: AgentRecord, hash: string): Promise<void> {
    await this.collection.insertOne({ ...toDocument(record), hash });
  }
}
