import { type Collection, DuplicateKeyError } from './document-store.port';

/** One named sequence: the last number handed out. */
export interface SequenceCounterDoc {
  _id: string;
  seq: number;
}

/** The next number (1, 2, …) of the sequence `key`; concurrent callers never get the same one. */
export const nextSequence = async (counters: Collection<SequenceCounterDoc>, key: string): Promise<number> => {
  for (;;) {
    const counter = await counters.findOneAndUpdate({ _id: key }, { $inc: { seq: 1 } });
    if (counter) return counter.seq;
    try {
      await counters.insertOne({ _id: key, seq: 1 });
      return 1;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }
};
