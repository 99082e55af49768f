import { Inject, Injectable } from '@nestjs/common';
import type { ApiTokenRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

type ApiTokenDocument = Stored<ApiTokenRecord> & { hash: string };

const toRecord = ({ hash: _hash, ...doc }: ApiTokenDocument): ApiTokenRecord => fromDocument<ApiTokenRecord>(doc);

@Injectable()
export class ApiTokenRepository {
  private readonly tokens: Collection<ApiTokenDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.tokens = documents.collection<ApiTokenDocument>('api_tokens', [{ keys: { hash: 1 }, unique: true }, { keys: { userId: 1 } }]);
  }

  async insert(record: ApiTokenRecord, hash: string): Promise<void> {
    await this.tokens.insertOne({ ...toDocument(record), hash });
  }

  async findLiveByHash(hash: string): Promise<ApiTokenRecord | null> {
    const doc = await this.tokens.findOne({ hash, revokedAt: null });
    return doc ? toRecord(doc) : null;
  }

  async listByUser(userId: string): Promise<ApiTokenRecord[]> {
    return (await this.tokens.find({ userId }, { sort: { createdAt: 1, _id: 1 } })).map(toRecord);
  }

  async revoke(userId: string, tokenId: string, revokedAt: string): Promise<ApiTokenRecord | null> {
    const doc =
      (await this.tokens.findOneAndUpdate({ _id: tokenId, userId, revokedAt: null }, { $set: { revokedAt } })) ??
      (await this.tokens.findOne({ _id: tokenId, userId }));
    return doc ? toRecord(doc) : null;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.tokens.deleteMany({ userId });
  }
}
