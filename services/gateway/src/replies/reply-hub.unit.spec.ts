import { replyChannel, type TokenChunk } from '@palaver/contracts';
import { InProcessPubSub } from '@palaver/platform';
import { describe, expect, it } from 'vitest';
import { ReplyListener } from './reply-listener';

describe('ReplyListener', () => {
  it('on silence, records the failure (with the text sent so far) before it yields the timeout error', async () => {
    const pubsub = new InProcessPubSub();
    const order: string[] = [];
    let recordedText: string | null = null;
    const listener = await ReplyListener.listen(pubsub, 'reply-1', 50, async (partialText) => {
      await new Promise((r) => setTimeout(r, 20));
      recordedText = partialText;
      order.push('recorded');
    });
    await pubsub.publish(replyChannel('reply-1'), { type: 'delta', delta: 'Hello ' });
    await pubsub.publish(replyChannel('reply-1'), { type: 'delta', delta: 'there' });
    const chunks: TokenChunk[] = [];
    for await (const chunk of listener.chunks()) {
      chunks.push(chunk);
      if (chunk.type === 'error') order.push('told');
    }
    expect(chunks.at(-1)).toMatchObject({ type: 'error', error: 'the reply timed out' });
    expect(order).toEqual(['recorded', 'told']);
    expect(recordedText).toBe('Hello there');
    await pubsub.close();
  });

  it('still tells the visitor when recording the failure fails', async () => {
    const pubsub = new InProcessPubSub();
    const listener = await ReplyListener.listen(pubsub, 'reply-2', 30, async () => {
      throw new Error('conversation unavailable');
    });
    const chunks: TokenChunk[] = [];
    for await (const chunk of listener.chunks()) chunks.push(chunk);
    expect(chunks).toEqual([{ type: 'error', code: 'SERVICE_UNAVAILABLE', error: 'the reply timed out' }]);
    await pubsub.close();
  });
});
