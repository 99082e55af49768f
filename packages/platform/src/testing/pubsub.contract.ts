import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PubSub } from '../pubsub/pubsub.port';

const WAIT = { timeout: 3_000, interval: 10 };

/** The behaviour every PubSub adapter shares; `factory` gives a fresh, connected instance. */
export function describePubSubContract(adapterName: string, factory: () => Promise<PubSub>): void {
  describe(`PubSub contract: ${adapterName}`, () => {
    let pubsub: PubSub;
    const channel = () => `test.${randomUUID()}`;

    beforeEach(async () => {
      pubsub = await factory();
    });

    afterEach(async () => {
      await pubsub.close();
    });

    it('delivers a published message to a subscriber as a copy', async () => {
      const ch = channel();
      const received: unknown[] = [];
      await pubsub.subscribe(ch, (m) => received.push(m));
      const sent = { text: 'hello', n: 1, nested: { ok: true } };
      await pubsub.publish(ch, sent);
      await vi.waitFor(() => expect(received).toEqual([{ text: 'hello', n: 1, nested: { ok: true } }]), WAIT);
      expect(received[0]).not.toBe(sent);
    });

    it('delivers to every subscriber of the channel, and only of that channel', async () => {
      const ch = channel();
      const other = channel();
      const a: unknown[] = [];
      const b: unknown[] = [];
      const elsewhere: unknown[] = [];
      await pubsub.subscribe(ch, (m) => a.push(m));
      await pubsub.subscribe(ch, (m) => b.push(m));
      await pubsub.subscribe(other, (m) => elsewhere.push(m));
      await pubsub.publish(ch, 'x');
      await pubsub.publish(other, 'barrier');
      await vi.waitFor(() => expect(elsewhere).toEqual(['barrier']), WAIT);
      await vi.waitFor(() => expect([a, b]).toEqual([['x'], ['x']]), WAIT);
    });

    it('keeps the publish order', async () => {
      const ch = channel();
      const received: unknown[] = [];
      await pubsub.subscribe(ch, (m) => received.push(m));
      const sent = Array.from({ length: 50 }, (_, i) => ({ i }));
      for (const m of sent) await pubsub.publish(ch, m);
      await vi.waitFor(() => expect(received).toEqual(sent), WAIT);
    });

    it('gives each subscriber its own copy', async () => {
      const ch = channel();
      const first: Array<{ tag: string }> = [];
      const second: Array<{ tag: string }> = [];
      await pubsub.subscribe(ch, (m) => {
        const message = m as { tag: string };
        message.tag = 'changed by the first';
        first.push(message);
      });
      await pubsub.subscribe(ch, (m) => second.push(m as { tag: string }));
      await pubsub.publish(ch, { tag: 'original' });
      await vi.waitFor(() => expect(second).toHaveLength(1), WAIT);
      await vi.waitFor(() => expect(first).toHaveLength(1), WAIT);
      expect(second[0]).toEqual({ tag: 'original' });
    });

    it('stops delivering after unsubscribe, to that subscriber only', async () => {
      const ch = channel();
      const gone: unknown[] = [];
      const staying: unknown[] = [];
      const unsubscribe = await pubsub.subscribe(ch, (m) => gone.push(m));
      await pubsub.subscribe(ch, (m) => staying.push(m));
      await pubsub.publish(ch, 1);
      await vi.waitFor(() => expect(gone).toEqual([1]), WAIT);
      await unsubscribe();
      await pubsub.publish(ch, 2);
      await vi.waitFor(() => expect(staying).toEqual([1, 2]), WAIT);
      expect(gone).toEqual([1]);
    });

    it('stops listening to a channel once its last subscriber leaves, and can subscribe again', async () => {
      const ch = channel();
      const barrier = channel();
      const received: unknown[] = [];
      const barrierSeen: unknown[] = [];
      await pubsub.subscribe(barrier, (m) => barrierSeen.push(m));
      const unsubscribe = await pubsub.subscribe(ch, (m) => received.push(m));
      await unsubscribe();
      await pubsub.publish(ch, 'unheard');
      await pubsub.publish(barrier, 'b1');
      await vi.waitFor(() => expect(barrierSeen).toEqual(['b1']), WAIT);
      await pubsub.subscribe(ch, (m) => received.push(m));
      await pubsub.publish(ch, 'heard');
      await vi.waitFor(() => expect(received).toEqual(['heard']), WAIT);
    });

    it('keeps nothing for a channel nobody listens to', async () => {
      const ch = channel();
      await pubsub.publish(ch, 'lost');
      const received: unknown[] = [];
      await pubsub.subscribe(ch, (m) => received.push(m));
      await pubsub.publish(ch, 'kept');
      await vi.waitFor(() => expect(received).toEqual(['kept']), WAIT);
    });

    it('publishDelivered resolves once the listeners have had the message, as published', async () => {
      const ch = channel();
      const a: unknown[] = [];
      const b: unknown[] = [];
      await pubsub.subscribe(ch, (m) => a.push(m));
      await pubsub.subscribe(ch, (m) => b.push(m));
      const delivery = await pubsub.publishDelivered(ch, { kind: 'key-revoked', keyId: 'k1' }, 3_000);
      expect(delivery).toEqual({ receivers: 1, confirmed: 1 });
      expect([a, b]).toEqual([[{ kind: 'key-revoked', keyId: 'k1' }], [{ kind: 'key-revoked', keyId: 'k1' }]]);
    });

    it('publishDelivered with nobody listening resolves at once, with no receivers', async () => {
      expect(await pubsub.publishDelivered(channel(), { kind: 'unheard' }, 3_000)).toEqual({ receivers: 0, confirmed: 0 });
    });

    it('keeps delivering to others, and later messages, when a subscriber throws', async () => {
      const ch = channel();
      let thrown = 0;
      const healthy: unknown[] = [];
      await pubsub.subscribe(ch, () => {
        thrown += 1;
        throw new Error('subscriber bug');
      });
      await pubsub.subscribe(ch, (m) => healthy.push(m));
      await pubsub.publish(ch, 'a');
      await pubsub.publish(ch, 'b');
      await vi.waitFor(() => expect(healthy).toEqual(['a', 'b']), WAIT);
      expect(thrown).toBe(2);
    });
  });
}
