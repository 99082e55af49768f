import { Inject, Injectable } from '@nestjs/common';
import type { Qna } from '@palaver/contracts';
import { type Collection, type DocumentStore, findPage, Ports } from '@palaver/platform';

type StoredQna = Omit<Qna, 'id' | 'object'> & { _id: string; projectId: string };

/** The project's Q&A entries (collection `qnas`); every query is scoped to a project. */
@Injectable()
export class QnaRepository {
  private readonly qnas: Collection<StoredQna>;

  constructor(@Inject(Ports.documents) store: DocumentStore) {
    this.qnas = store.collection<StoredQna>('qnas', [{ keys: { projectId: 1, updatedAt: -1 } }]);
  }

  async insert(projectId: string, qna: Qna): Promise<void> {
    await this.qnas.insertOne(toStored(projectId, qna));
  }

  async find(projectId: string, qnaId: string): Promise<Qna | null> {
    const doc = await this.qnas.findOne({ _id: qnaId, projectId });
    return doc ? fromStored(doc) : null;
  }

  async replace(projectId: string, qna: Qna): Promise<boolean> {
    const { matched } = await this.qnas.replaceOne({ _id: qna.id, projectId }, toStored(projectId, qna));
    return matched > 0;
  }

  async delete(projectId: string, qnaId: string): Promise<boolean> {
    return (await this.qnas.deleteOne({ _id: qnaId, projectId })) > 0;
  }

  /** Most recently updated first; `filter` narrows within the project (see `qnaQuestionFilter`). */
  async list(projectId: string, filter: Record<string, unknown>, limit: number, offset: number): Promise<{ total: number; data: Qna[] }> {
    const { total, data } = await findPage(this.qnas, { ...filter, projectId }, { sort: { updatedAt: -1, _id: 1 }, limit, offset });
    return { total, data: data.map(fromStored) };
  }
}

const toStored = (projectId: string, { id, object: _object, ...rest }: Qna): StoredQna => ({ _id: id, projectId, ...rest });

const fromStored = ({ _id, projectId: _projectId, ...rest }: StoredQna): Qna => ({ object: 'qna', id: _id, ...rest });
