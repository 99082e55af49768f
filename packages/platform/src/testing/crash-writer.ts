/**
 * A child process for kill -9 tests: writes to an embedded store in `dir` as fast as it can and
 * prints one line per acknowledged write, until its parent kills it.
 *
 *   tsx crash-writer.ts documents|derived-documents|events|stream|keys <dir>
 */
import { randomUUID } from 'node:crypto';
import { EmbeddedDocumentStore } from '../document-store/embedded.document-store';
import { FileEventStore } from '../event-store/file.event-store';
import { FileEventStream } from '../event-stream/file.event-stream';
import { FileKeyStore } from '../key-store/file.key-store';

const [kind, dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: crash-writer.ts documents|derived-documents|events|stream|keys <dir>');

const filler = 'x'.repeat(4_096);
const print = (line: string) => new Promise<void>((resolve) => process.stdout.write(`${line}\n`, () => resolve()));

/**
 * Round after round until the process is killed, several writes in flight at once as in a busy
 * service: `write` gets the numbers 0, 1, 2, … three a round; `afterRound` the round's number.
 */
const writeInRounds = async (write: (n: number, k: number) => Promise<void>, afterRound?: (round: number) => Promise<void>) => {
  for (let round = 0; ; round++) {
    await Promise.all([0, 1, 2].map((k) => write(round * 3 + k, k)));
    await afterRound?.(round);
  }
};

const writeDocuments = async (durability: 'acknowledged' | 'derived') => {
  const store = await EmbeddedDocumentStore.open(dir);
  const docs = store.collection<{ _id: string; i: number; filler: string; hits?: number }>('crash', [{ keys: { i: 1 }, unique: true }], {
    durability,
  });
  await writeInRounds(
    async (n) => {
      await docs.insertOne({ _id: `d${n}`, i: n, filler });
      await print(`ack insert d${n}`);
    },
    async (i) => {
      await docs.updateOne({ _id: 'counter' }, { $inc: { hits: 1 }, $setOnInsert: { i: -1, filler: '' } }, { upsert: true });
      await print(`ack counter ${i + 1}`);
      // A derived collection is durable as of a sync(): everything of the rounds before is.
      if (durability === 'derived' && i % 5 === 4) {
        await store.sync();
        await print(`ack synced ${i + 1}`);
      }
    },
  );
};

const writeEvents = async () => {
  const store = await FileEventStore.open(dir);
  const versions = new Map<string, number>();
  for (;;) {
    await Promise.all(
      ['s0', 's1', 's2'].map(async (streamId) => {
        const expected = versions.get(streamId) ?? 0;
        const events = [0, 1, 2].map((k) => ({
          eventId: randomUUID(),
          type: 'Crashed',
          data: { n: expected + k + 1, filler },
          projectId: '00000000-0000-4000-8000-000000000000',
          occurredAt: new Date(0).toISOString(),
        }));
        const stored = await store.append(streamId, expected, events);
        versions.set(streamId, expected + stored.length);
        await print(`ack ${streamId} ${expected + stored.length}`);
      }),
    );
  }
};

const writeStream = async () => {
  const stream = await FileEventStream.open(dir);
  await writeInRounds(async (n, k) => {
    const msgId = `m${n}`;
    await stream.publish(`crash.evt.k${k}`, { msgId, filler }, msgId);
    await print(`ack ${msgId}`);
  });
};

/** Makes keys several at a time, and deletes every tenth one made (a rewrite of the file) as it goes. */
const writeKeys = async () => {
  const store = await FileKeyStore.open(dir);
  await writeInRounds(
    async (n) => {
      const key = await store.createOrGet(`key${n}`);
      await print(`ack key key${n} ${key.toString('base64')}`);
    },
    async (i) => {
      if (i % 10 !== 9) return;
      const keyId = `key${i * 3 - 27}`;
      await store.delete([keyId]);
      await print(`ack del ${keyId}`);
    },
  );
};

const writers: Record<string, () => Promise<void>> = {
  documents: () => writeDocuments('acknowledged'),
  'derived-documents': () => writeDocuments('derived'),
  events: writeEvents,
  stream: writeStream,
  keys: writeKeys,
};
const writer = writers[kind ?? ''];
if (!writer) throw new Error(`unknown kind ${kind}`);
await print('ready');
await writer();
