import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, insertUnlessPresent, Ports } from '@palaver/platform';

interface StoredRevision {
  /** The project id. */
  _id: string;
  revision: number;
}

/**
 * A counter per project (collection `search_knowledge_revisions`) that every document write
 * increments once it took effect: a search instance whose in-memory lexical index was built at
 * another revision knows another instance changed the documents since.
 */
@Injectable()
export class KnowledgeRevisionRepository {
  private readonly revisions: Collection<StoredRevision>;

  constructor(@Inject(Ports.documents) store: DocumentStore) {
    this.revisions = store.collection<StoredRevision>('search_knowledge_revisions');
  }

  /** 0 for a project whose documents were never written. */
  async read(projectId: string): Promise<number> {
    return (await this.revisions.findOne({ _id: projectId }))?.revision ?? 0;
  }

  /** Moves the counter from `expected` to `expected + 1`; false when it was not at `expected`. */
  async advanceFrom(projectId: string, expected: number): Promise<boolean> {
    if (expected === 0) return this.create(projectId);
    const { matched } = await this.revisions.updateOne({ _id: projectId, revision: expected }, { $inc: { revision: 1 } });
    return matched > 0;
  }

  /** Increments the counter, whatever it is. */
  async advance(projectId: string): Promise<void> {
    for (;;) {
      const { matched } = await this.revisions.updateOne({ _id: projectId }, { $inc: { revision: 1 } });
      if (matched > 0 || (await this.create(projectId))) return;
    }
  }

  private create(projectId: string): Promise<boolean> {
    return insertUnlessPresent(this.revisions, { _id: projectId, revision: 1 });
  }
}
