import { Inject, Injectable } from '@nestjs/common';
import type { DocumentRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, findPage, Ports } from '@palaver/platform';

type StoredDocument = Omit<DocumentRecord, 'id'> & { _id: string; version: string };

export interface VersionedDocument {
  record: DocumentRecord;
  /** The indexing run whose chunks are live in the vector index. */
  version: string;
}

/** A document's change once its record is written: what it was and what it is now (null: no document). */
export interface DocumentChange {
  projectId: string;
  documentId: string;
  before: VersionedDocument | null;
  after: VersionedDocument | null;
}

/** The knowledge base's documents (collection `documents`); every query is scoped to a project. */
@Injectable()
export class DocumentRepository {
  private readonly documents: Collection<StoredDocument>;

  constructor(@Inject(Ports.documents) store: DocumentStore) {
    this.documents = store.collection<StoredDocument>('documents', [{ keys: { projectId: 1, createdAt: -1 } }]);
  }

  async insert(record: DocumentRecord, version: string): Promise<void> {
    await this.documents.insertOne(toStored(record, version));
  }

  async find(projectId: string, documentId: string): Promise<VersionedDocument | null> {
    const doc = await this.documents.findOne({ _id: documentId, projectId });
    return doc ? { record: fromStored(doc), version: doc.version } : null;
  }

  /** Replaces the document if it is still at `expectedVersion`; false when it changed or is gone. */
  async replace(record: DocumentRecord, expectedVersion: string, version: string): Promise<boolean> {
    const { matched } = await this.documents.replaceOne(
      { _id: record.id, projectId: record.projectId, version: expectedVersion },
      toStored(record, version),
    );
    return matched > 0;
  }

  /** Deletes the document only if it is still at `version`; false otherwise. */
  async deleteAt(projectId: string, documentId: string, version: string): Promise<boolean> {
    return (await this.documents.deleteOne({ _id: documentId, projectId, version })) > 0;
  }

  /** The live version of each of these documents that exists (the only chunks search may return). */
  async liveVersions(projectId: string, documentIds: readonly string[]): Promise<Map<string, string>> {
    if (documentIds.length === 0) return new Map();
    const docs = await this.documents.find({ projectId, _id: { $in: [...documentIds] } });
    return new Map(docs.map((doc) => [doc._id, doc.version]));
  }

  /** Deletes the document and returns what it was (the version it had when deleted); null when there is none. */
  async delete(projectId: string, documentId: string): Promise<VersionedDocument | null> {
    for (;;) {
      const current = await this.find(projectId, documentId);
      if (!current) return null;
      if ((await this.documents.deleteOne({ _id: documentId, projectId, version: current.version })) > 0) return current;
      // Updated between the read and the delete: read the new version.
    }
  }

  /** The project's documents with their versions, by id, after `afterId` (keyset paging for a full scan). */
  async pageByIdAfter(projectId: string, afterId: string | null, limit: number): Promise<VersionedDocument[]> {
    const docs = await this.documents.find(afterId === null ? { projectId } : { projectId, _id: { $gt: afterId } }, {
      sort: { _id: 1 },
      limit,
    });
    return docs.map((doc) => ({ record: fromStored(doc), version: doc.version }));
  }

  /** Newest first. */
  async list(projectId: string, limit: number, offset: number): Promise<{ total: number; data: DocumentRecord[] }> {
    const { total, data } = await findPage(this.documents, { projectId }, { sort: { createdAt: -1, _id: -1 }, limit, offset });
    return { total, data: data.map(fromStored) };
  }
}

const toStored = ({ id, ...rest }: DocumentRecord, version: string): StoredDocument => ({ _id: id, ...rest, version });

const fromStored = ({ _id, version: _version, ...rest }: StoredDocument): DocumentRecord => ({ id: _id, ...rest });
