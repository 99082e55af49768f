import { Inject, Injectable } from '@nestjs/common';
import type { KeyRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

/**
 * A key at rest: the listed record plus the SHA-256 of the full key and the normalized origin
 * entries the CORS preflight looks up (see `originMatchEntries`). Only a publishable key's
 * record holds the key itself (`key`); a private key is never stored.
 */
export type KeyDocument = Stored<KeyRecord> & { hash: string; originMatch: string[] };

const toRecord = (doc: KeyDocument): KeyRecord => {
  const { hash: _hash, originMatch: _originMatch, key, ...record } = doc;
  // Only a publishable key is ever listed whole, whatever a document holds.
  return fromDocument<KeyRecord>(doc.type === 'publishable' && key ? { ...record, key } : record);
};

@Injectable()
export class KeyRepository {
  private readonly keys: Collection<KeyDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.keys = documents.collection<KeyDocument>('keys', [
      { keys: { hash: 1 }, unique: true },
      { keys: { projectId: 1, createdAt: 1 } },
      { keys: { originMatch: 1 } },
    ]);
  }

  async insert(record: KeyRecord, hash: string, originMatch: string[]): Promise<void> {
    await this.keys.insertOne({ ...toDocument(record), hash, originMatch });
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const doc = await this.keys.findOne({ hash });
    return doc ? toRecord(doc) : null;
  }

  async findById(projectId: string, keyId: string): Promise<KeyRecord | null> {
    const doc = await this.keys.findOne({ _id: keyId, projectId });
    return doc ? toRecord(doc) : null;
  }

  async listByProject(projectId: string): Promise<KeyRecord[]> {
    const docs = await this.keys.find({ projectId }, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(toRecord);
  }

  /** Sets revokedAt on a live key; null when the project has no such live key. */
  async revoke(projectId: string, keyId: string, revokedAt: string): Promise<KeyRecord | null> {
    const doc = await this.keys.findOneAndUpdate({ _id: keyId, projectId, revokedAt: null }, { $set: { revokedAt } });
    return doc ? toRecord(doc) : null;
  }

  /** Whether a live publishable key stores one of these origin entries. */
  async anyLivePublishableMatching(entries: string[]): Promise<boolean> {
    const doc = await this.keys.findOne({ originMatch: { $in: entries }, type: 'publishable', revokedAt: null });
    return doc !== null;
  }
}
