import { CONVERSATION_CHANGES_CHANNEL } from '@palaver/contracts';
import { InProcessPubSub, type PubSub } from '@palaver/platform';
import { describe, expect, it } from 'vitest';
import { ReadModelChanges } from './read-model.changes';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const ALICE = '00000000-0000-4000-8000-00000000000a';
const BOB = '00000000-0000-4000-8000-00000000000b';

const listening = async (pubsub: PubSub) => {
  const heard: unknown[] = [];
  await pubsub.subscribe(CONVERSATION_CHANGES_CHANNEL, (message) => heard.push(message));
  return heard;
};

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadModelChanges', () => {
  it("announces a turn's changes once per visitor, after everything asked in that turn", async () => {
    const pubsub = new InProcessPubSub();
    const heard = await listening(pubsub);
    const changes = new ReadModelChanges(pubsub);
    const asked = [
      changes.announce({ projectId: PROJECT, visitorId: ALICE }),
      changes.announce({ projectId: PROJECT, visitorId: BOB }),
      changes.announce({ projectId: PROJECT, visitorId: ALICE }),
    ];
    // Asked again in a later microtask of the same turn: still the same publication.
    await Promise.resolve();
    asked.push(changes.announce({ projectId: PROJECT, visitorId: ALICE }));
    expect(heard).toEqual([]);
    await Promise.all(asked);
    expect(heard).toEqual([
      { projectId: PROJECT, visitorId: ALICE },
      { projectId: PROJECT, visitorId: BOB },
    ]);
  });

  it('announces again in a later turn: a change after a publication is not covered by it', async () => {
    const pubsub = new InProcessPubSub();
    const heard = await listening(pubsub);
    const changes = new ReadModelChanges(pubsub);
    await changes.announce({ projectId: PROJECT, visitorId: ALICE });
    await nextTurn();
    await changes.announce({ projectId: PROJECT, visitorId: ALICE });
    expect(heard).toHaveLength(2);
  });

  it('fails every asker of a publication that failed, and only those', async () => {
    const pubsub = new InProcessPubSub();
    let failing = true;
    const flaky: PubSub = {
      publish: (channel, message) => (failing ? Promise.reject(new Error('redis down')) : pubsub.publish(channel, message)),
      publishDelivered: (channel, message) => pubsub.publishDelivered(channel, message),
      subscribe: (channel, onMessage) => pubsub.subscribe(channel, onMessage),
      close: () => pubsub.close(),
    };
    const heard = await listening(pubsub);
    const changes = new ReadModelChanges(flaky);
    const first = changes.announce({ projectId: PROJECT, visitorId: ALICE });
    const second = changes.announce({ projectId: PROJECT, visitorId: ALICE });
    await expect(first).rejects.toThrow('redis down');
    await expect(second).rejects.toThrow('redis down');
    failing = false;
    await changes.announce({ projectId: PROJECT, visitorId: ALICE });
    expect(heard).toEqual([{ projectId: PROJECT, visitorId: ALICE }]);
  });
});
