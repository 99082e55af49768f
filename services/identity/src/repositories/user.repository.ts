import { Inject, Injectable } from '@nestjs/common';
import type { UserRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

/** A user at rest: the record plus the argon2id hash of the password (null until one is set). */
export type UserDocument = Stored<UserRecord> & { passwordHash: string | null };

const toRecord = (doc: UserDocument): UserRecord => {
  const { passwordHash: _hash, ...record } = doc;
  return fromDocument<UserRecord>(record);
};

@Injectable()
export class UserRepository {
  private readonly users: Collection<UserDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.users = documents.collection<UserDocument>('users', [{ keys: { email: 1 }, unique: true }, { keys: { createdAt: 1 } }]);
  }

  /** DuplicateKeyError when the email is taken. */
  async insert(record: UserRecord, passwordHash: string | null): Promise<void> {
    await this.users.insertOne({ ...toDocument(record), passwordHash });
  }

  async findById(userId: string): Promise<UserRecord | null> {
    const doc = await this.users.findOne({ _id: userId });
    return doc ? toRecord(doc) : null;
  }

  async findByIds(userIds: string[]): Promise<UserRecord[]> {
    const docs = await this.users.find({ _id: { $in: userIds } });
    return docs.map(toRecord);
  }

  /** The record and the password hash, for signing in only. */
  async findCredentials(email: string): Promise<{ user: UserRecord; passwordHash: string | null } | null> {
    const doc = await this.users.findOne({ email });
    return doc ? { user: toRecord(doc), passwordHash: doc.passwordHash } : null;
  }

  async list(): Promise<UserRecord[]> {
    const docs = await this.users.find({}, { sort: { createdAt: 1, _id: 1 } });
    return docs.map(toRecord);
  }

  async update(userId: string, set: Partial<Omit<UserDocument, '_id' | 'email' | 'createdAt'>>): Promise<UserRecord | null> {
    const doc = await this.users.findOneAndUpdate({ _id: userId }, { $set: set });
    return doc ? toRecord(doc) : null;
  }

  async delete(userId: string): Promise<number> {
    return this.users.deleteOne({ _id: userId });
  }
}
