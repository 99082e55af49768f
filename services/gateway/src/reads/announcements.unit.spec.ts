import { randomUUID } from 'node:crypto';
import { AGENT_FEED_CHANGES_CHANNEL, CONVERSATION_CHANGES_CHANNEL } from '@palaver/contracts';
import { InProcessPubSub } from '@palaver/platform';
import { describe, expect, it } from 'vitest';
import { agentFeedChanges, visitorChanges } from './announcements';

describe('announcements', () => {
  it('calls the listeners of the announced visitor only, until they stop listening, and those of every change', async () => {
    const pubsub = new InProcessPubSub();
    const changes = visitorChanges();
    await changes.start(pubsub);
    const ada = { projectId: randomUUID(), visitorId: randomUUID() };
    const grace = { projectId: ada.projectId, visitorId: randomUUID() };
    const heard: string[] = [];
    const every: unknown[] = [];
    changes.listenAll((change) => every.push(change));
    const stopAda = changes.listen(ada, () => heard.push('ada'));
    changes.listen(grace, () => heard.push('grace'));

    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, ada);
    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, { projectId: 'not a uuid' });
    expect(heard).toEqual(['ada']);
    stopAda();
    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, ada);
    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, grace);
    expect(heard).toEqual(['ada', 'grace']);
    expect(every).toEqual([ada, ada, grace]); // the malformed one left out
    await changes.stop();
    await pubsub.publish(CONVERSATION_CHANGES_CHANNEL, grace);
    expect(heard).toEqual(['ada', 'grace']);
  });

  it("calls an agent feed's listeners for their project", async () => {
    const pubsub = new InProcessPubSub();
    const feeds = agentFeedChanges();
    await feeds.start(pubsub);
    const project = randomUUID();
    let heard = 0;
    feeds.listen({ projectId: project }, () => heard++);
    await pubsub.publish(AGENT_FEED_CHANGES_CHANNEL, { projectId: randomUUID() });
    await pubsub.publish(AGENT_FEED_CHANGES_CHANNEL, { projectId: project });
    expect(heard).toBe(1);
    await feeds.stop();
  });
});
