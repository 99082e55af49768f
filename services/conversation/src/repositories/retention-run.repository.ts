import { Inject, Injectable } from '@nestjs/common';
import { type Collection, type DocumentStore, insertUnlessPresent, Ports } from '@palaver/platform';

interface RetentionRunDoc {
  _id: 'daily';
  /** The UTC day of the last run. */
  day: string;
}

/** Which day retention last ran (`retention_runs`): of several instances, one runs it each day. */
@Injectable()
export class RetentionRunRepository {
  private readonly runs: Collection<RetentionRunDoc>;

  constructor(@Inject(Ports.documents) documents: DocumentStore) {
    this.runs = documents.collection<RetentionRunDoc>('retention_runs');
  }

  /** Takes `day`'s run: true for the one caller that moved the record to it. */
  async claim(day: string): Promise<boolean> {
    const { matched } = await this.runs.updateOne({ _id: 'daily', day: { $lt: day } }, { $set: { day } });
    if (matched > 0) return true;
    return insertUnlessPresent(this.runs, { _id: 'daily', day });
  }
}
