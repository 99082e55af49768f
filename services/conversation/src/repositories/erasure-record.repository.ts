import { Inject, Injectable } from '@nestjs/common';
import type { ErasureRecord } from '@palaver/contracts';
import { type Collection, type DocumentStore, findPage, Ports } from '@palaver/platform';

type ErasureDoc = Omit<ErasureRecord, 'id' | 'object'> & { _id: string };

/** The record of every erasure (`erasures`): who, when, which visitor, how many conversations; never what was erased. */
@Injectable()
export class ErasureRecordRepository {
  private readonly records: Collection<ErasureDoc>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.records = documents.collection<ErasureDoc>('erasures', [{ keys: { projectId: 1, erasedAt: -1 } }]);
  }

  async insert(record: ErasureRecord): Promise<void> {
    const { id, object: _object, ...rest } = record;
    await this.records.insertOne({ _id: id, ...rest });
  }

  async page(projectId: string, offset: number, limit: number): Promise<{ data: ErasureRecord[]; total: number }> {
    const { total, data } = await findPage(this.records, { projectId }, { sort: { erasedAt: -1, _id: -1 }, limit, offset });
    return { data: data.map(({ _id, ...rest }) => ({ object: 'erasure', id: _id, ...rest })), total };
  }
}
