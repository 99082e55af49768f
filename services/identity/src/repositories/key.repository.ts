import { Inject, Injectable } from '@nestjs/common';
import type { KeyRecord } from '@palaver/contracts';
import { type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';
import { ProjectCredentialRepository } from './project-credential.repository';

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
export class KeyRepository extends ProjectCredentialRepository<KeyRecord, KeyDocument> {
  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    super(documents, 'keys', toRecord, [{ keys: { originMatch: 1 } }]);
  }

  async insert(record: KeyRecord, hash: string, originMatch: string[]): Promise<void> {
    await this.collection.insertOne({ ...toDocument(record), hash, originMatch });
  }

  /** Whether a live publishable key stores one of these origin entries. */
  async anyLivePublishableMatching(entries: string[]): Promise<boolean> {
    const doc = await this.collection.findOne({ originMatch: { $in: entries }, type: 'publishable', revokedAt: null });
    return doc !== null;
  }
}
