import { Inject, Injectable } from '@nestjs/common';
import type { AuditEntry, AuditQuery } from '@palaver/contracts';
import { type Collection, type DocumentStore, DuplicateKeyError, type Filter, Ports } from '@palaver/platform';
import { fromDocument, type Stored, toDocument } from './document-mapping';

type AuditDocument = Stored<AuditEntry>;

/** The cursor is the last entry's time and id: entries are listed newest first, ties by id. */
const encodeCursor = (entry: AuditEntry): string => Buffer.from(`${entry.at}|${entry.id}`).toString('base64url');
const decodeCursor = (cursor: string): { at: string; id: string } | null => {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  return at && id ? { at, id } : null;
};

/** The audit log: append-only (this class has no update nor delete). */
@Injectable()
export class AuditRepository {
  private readonly entries: Collection<AuditDocument>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.entries = documents.collection<AuditDocument>('audit_log', [{ keys: { projectId: 1, at: -1, _id: -1 } }]);
  }

  /** Inserts the entry unless one with its id is stored; answers the stored one (never overwritten). */
  async appendOnce(entry: AuditEntry): Promise<AuditEntry> {
    try {
      await this.entries.insertOne(toDocument(entry));
      return entry;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const stored = await this.entries.findOne({ _id: entry.id });
      if (!stored) throw err;
      return fromDocument<AuditEntry>(stored);
    }
  }

  async list(projectId: string, query: AuditQuery): Promise<{ data: AuditEntry[]; nextCursor: string | null }> {
    const filter: Filter = { projectId };
    if (query.actor) filter['actor.id'] = query.actor;
    if (query.action) filter.action = query.action.includes('.') ? query.action : { $regex: `^${query.action.replace(/[^a-z-]/g, '')}\\.` };
    const at: Record<string, string> = {};
    if (query.from) at.$gte = query.from;
    if (query.to) at.$lt = query.to;
    if (Object.keys(at).length > 0) filter.at = at;
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const page: Filter = after
      ? { $and: [filter, { $or: [{ at: { $lt: after.at } }, { at: after.at, _id: { $lt: after.id } }] }] }
      : filter;
    const docs = await this.entries.find(page, { sort: { at: -1, _id: -1 }, limit: query.limit + 1 });
    const data = docs.slice(0, query.limit).map((doc) => fromDocument<AuditEntry>(doc));
    return { data, nextCursor: docs.length > query.limit ? encodeCursor(data[data.length - 1]!) : null };
  }
}
