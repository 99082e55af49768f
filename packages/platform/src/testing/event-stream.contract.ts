import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MAX_DELIVERIES, type EventStream, type StreamMessage, type StreamSubscription } from '../event-stream/event-stream.port';

export interface EventStreamFixture {
  /** Opens the stream under test; called again after `close()` it reopens the same stream. */
  open(): Promise<EventStream>;
  /** Every subject the tests publish starts with this token (the stream must carry `<prefix>.>`). */
  subjectPrefix: string;
  /** Removes what the test left behind (every stream it opened is closed by then). */
  cleanup(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const waitFor = async (condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> => {
  await vi.waitFor(() => expect(condition(), `waiting for ${what}`).toBe(true), { timeout: timeoutMs, interval: 10 });
};

/** A handler that records what it handled. */
const recorder = () => {
  const handled: StreamMessage[] = [];
  return {
    handled,
    payloads: () => handled.map((m) => m.payload),
    handler: async (message: StreamMessage) => {
      handled.push(message);
    },
  };
};

/**
 * The behaviour every EventStream adapter shares: idempotent publish, durable consumers that
 * resume after their last acknowledged message, at-least-once redelivery, NATS subject filters.
 */
export function describeEventStreamContract(adapterName: string, factory: () => Promise<EventStreamFixture>): void {
  describe(`EventStream contract: ${adapterName}`, () => {
    let fixture: EventStreamFixture;
    let stream: EventStream;
    let subs: StreamSubscription[];
    let subject: (rest: string) => string;
    let durable: (name: string) => string;
    let open = true;

    const subscribe = async (name: string, filter: string, handler: (m: StreamMessage) => Promise<void>) => {
      const sub = await stream.subscribe(durable(name), filter, handler);
      subs.push(sub);
      return sub;
    };

    const reopen = async () => {
      await stream.close();
      stream = await fixture.open();
    };

    /** Publishes a marker and waits until `rec` has it: everything published before was offered by then. */
    const flush = async (rec: ReturnType<typeof recorder>, subj: string) => {
      const marker = `marker-${randomUUID()}`;
      await stream.publish(subj, { marker }, marker);
      await waitFor(() => rec.handled.some((m) => (m.payload as { marker?: string }).marker === marker), 'the marker');
      rec.handled.splice(
        rec.handled.findIndex((m) => (m.payload as { marker?: string }).marker === marker),
        1,
      );
    };

    beforeEach(async () => {
      fixture = await factory();
      stream = await fixture.open();
      open = true;
      subs = [];
      subject = (rest) => `${fixture.subjectPrefix}.${rest}`;
      const run = randomUUID().slice(0, 8);
      durable = (name) => `${name}-${run}`;
    });

    afterEach(async () => {
      for (const sub of subs) await sub.stop();
      if (open) await stream.close();
      await fixture.cleanup();
    });

    it('delivers the backlog, then live messages, in order, with increasing seq and intact payloads', async () => {
      const rec = recorder();
      const payload = { text: 'héllo', nested: { list: [1, null, 'x'], ok: true } };
      await stream.publish(subject('evt.a'), payload, 'm1');
      await stream.publish(subject('evt.a'), { n: 2 }, 'm2');
      await subscribe('reader', subject('evt.>'), rec.handler);
      await waitFor(() => rec.handled.length === 2, 'the backlog');
      await stream.publish(subject('evt.b'), { n: 3 }, 'm3');
      await stream.publish(subject('evt.a'), { n: 4 }, 'm4');
      await waitFor(() => rec.handled.length === 4, 'the live messages');
      expect(rec.payloads()).toEqual([payload, { n: 2 }, { n: 3 }, { n: 4 }]);
      expect(rec.handled.map((m) => m.subject)).toEqual([subject('evt.a'), subject('evt.a'), subject('evt.b'), subject('evt.a')]);
      const seqs = rec.handled.map((m) => m.seq);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      expect(new Set(seqs).size).toBe(4);
    });

    it('dead-letters a message whose handler keeps failing after its last try, and goes on with the next', async () => {
      const rec = recorder();
      let tries = 0;
      await subscribe('poisoned', subject('evt.>'), async (m) => {
        if ((m.payload as { poison?: boolean }).poison) {
          tries += 1;
          throw new Error('cannot handle this one');
        }
        await rec.handler(m);
      });
      const dead = recorder();
      await subscribe('dead-reader', stream.deadLetterSubject(durable('poisoned')), dead.handler);
      await stream.publish(subject('evt.a'), { poison: true }, 'poison-1');
      await stream.publish(subject('evt.a'), { n: 2 }, 'after-poison');
      await waitFor(() => rec.handled.length === 1, 'the message after the poison');
      expect(rec.payloads()).toEqual([{ n: 2 }]);
      expect(tries).toBe(DEFAULT_MAX_DELIVERIES);
      await waitFor(() => dead.handled.length === 1, 'the dead letter');
      expect(dead.handled[0]!.payload).toMatchObject({
        durable: durable('poisoned'),
        subject: subject('evt.a'),
        payload: { poison: true },
        error: 'cannot handle this one',
        deliveries: DEFAULT_MAX_DELIVERIES,
      });
    });

    it('publishes a msgId only once', async () => {
      const rec = recorder();
      await subscribe('dedupe', subject('evt.>'), rec.handler);
      await stream.publish(subject('evt.a'), { n: 1 }, 'same-id');
      await stream.publish(subject('evt.a'), { n: 1, again: true }, 'same-id');
      await stream.publish(subject('evt.b'), { n: 2 }, 'other-id');
      await flush(rec, subject('evt.z'));
      expect(rec.payloads()).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('still deduplicates after a reopen', async () => {
      await stream.publish(subject('evt.a'), { n: 1 }, 'before-restart');
      await reopen();
      await stream.publish(subject('evt.a'), { n: 1, again: true }, 'before-restart');
      const rec = recorder();
      await subscribe('dedupe-restart', subject('evt.>'), rec.handler);
      await flush(rec, subject('evt.z'));
      expect(rec.payloads()).toEqual([{ n: 1 }]);
    });

    it('resumes a durable consumer after its last acknowledged message', async () => {
      for (let n = 1; n <= 3; n++) await stream.publish(subject('evt.a'), { n }, `r${n}`);
      const first = recorder();
      const sub = await subscribe('resume', subject('evt.>'), first.handler);
      await waitFor(() => first.handled.length === 3, 'the first three');
      await sub.stop();
      for (let n = 4; n <= 5; n++) await stream.publish(subject('evt.a'), { n }, `r${n}`);

      const second = recorder();
      await subscribe('resume', subject('evt.>'), second.handler);
      await flush(second, subject('evt.z'));
      expect(second.payloads()).toEqual([{ n: 4 }, { n: 5 }]);
      // Offered to the resumed consumer (and past them its marker), none reached the stopped one.
      expect(first.handled).toHaveLength(3);
    });

    it('resumes a durable consumer across a close and reopen', async () => {
      for (let n = 1; n <= 2; n++) await stream.publish(subject('evt.a'), { n }, `d${n}`);
      const first = recorder();
      await subscribe('restart', subject('evt.>'), first.handler);
      await waitFor(() => first.handled.length === 2, 'the first two');
      subs = [];
      await reopen();
      await stream.publish(subject('evt.a'), { n: 3 }, 'd3');
      const second = recorder();
      await subscribe('restart', subject('evt.>'), second.handler);
      await flush(second, subject('evt.z'));
      expect(second.payloads()).toEqual([{ n: 3 }]);
    });

    it('gives each durable consumer every message, independently', async () => {
      const a = recorder();
      const b = recorder();
      await subscribe('one', subject('evt.>'), a.handler);
      for (let n = 1; n <= 3; n++) await stream.publish(subject('evt.a'), { n }, `i${n}`);
      await subscribe('two', subject('evt.>'), b.handler);
      await waitFor(() => a.handled.length === 3 && b.handled.length === 3, 'both consumers');
      expect(a.payloads()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(b.payloads()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });

    it('delivers a message again when its handler throws, before any later message', async () => {
      const attempts: number[] = [];
      const handled: number[] = [];
      let failures = 0;
      await subscribe('retry', subject('evt.>'), async (message) => {
        const n = (message.payload as { n: number }).n;
        attempts.push(n);
        if (n === 2 && failures < 2) {
          failures += 1;
          throw new Error('transient failure');
        }
        handled.push(n);
      });
      for (let n = 1; n <= 3; n++) await stream.publish(subject('evt.a'), { n }, `t${n}`);
      await waitFor(() => handled.length === 3, 'all three handled', 15_000);
      expect(handled).toEqual([1, 2, 3]);
      expect(attempts).toEqual([1, 2, 2, 2, 3]);
    });

    it('does not let a failing consumer hold up another one', async () => {
      let failing = true;
      const stuck: number[] = [];
      await subscribe('stuck', subject('evt.>'), async (message) => {
        if (failing) throw new Error('down');
        stuck.push((message.payload as { n: number }).n);
      });
      const healthy = recorder();
      await subscribe('healthy', subject('evt.>'), healthy.handler);
      for (let n = 1; n <= 3; n++) await stream.publish(subject('evt.a'), { n }, `h${n}`);
      await waitFor(() => healthy.handled.length === 3, 'the healthy consumer');
      expect(stuck).toEqual([]);
      failing = false;
      await waitFor(() => stuck.length === 3, 'the recovered consumer', 15_000);
      expect(stuck).toEqual([1, 2, 3]);
    });

    it('hands a consumer one message at a time', async () => {
      let running = 0;
      let most = 0;
      const seen: number[] = [];
      await subscribe('serial', subject('evt.>'), async (message) => {
        running += 1;
        most = Math.max(most, running);
        await sleep(15);
        seen.push((message.payload as { n: number }).n);
        running -= 1;
      });
      await Promise.all(Array.from({ length: 6 }, (_, i) => stream.publish(subject(`evt.k${i}`), { n: i }, `s${i}`)));
      await waitFor(() => seen.length === 6, 'six messages');
      expect(most).toBe(1);
      expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    });

    it('hands a batch consumer the messages waiting, in order, up to its batch size, and the next batch after', async () => {
      for (let n = 0; n < 7; n++) await stream.publish(subject('evt.b'), { n }, `b${n}`);
      const batches: number[][] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const sub = await stream.subscribeBatches(
        durable('batches'),
        subject('evt.>'),
        async (messages) => {
          batches.push(messages.map((m) => (m.payload as { n: number }).n));
          if (batches.length === 1) await held;
        },
        3,
      );
      subs.push(sub);
      await waitFor(() => batches.length === 1, 'the first batch');
      await stream.publish(subject('evt.b'), { n: 7 }, 'b7');
      release();
      await waitFor(() => batches.flat().length === 8, 'every message');
      expect(batches.flat()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(3);
      expect(batches.length).toBeLessThan(8); // the backlog came in batches, not one by one
    });

    it('delivers a failed batch again one message at a time, dead-lettering only the one that keeps failing', async () => {
      const handled: number[] = [];
      const sizes: number[] = [];
      await stream.publish(subject('evt.p'), { n: 1 }, 'p1');
      await stream.publish(subject('evt.p'), { n: 2, poison: true }, 'p2');
      await stream.publish(subject('evt.p'), { n: 3 }, 'p3');
      const sub = await stream.subscribeBatches(
        durable('poisoned-batch'),
        subject('evt.>'),
        async (messages) => {
          sizes.push(messages.length);
          if (messages.some((m) => (m.payload as { poison?: boolean }).poison)) throw new Error('poison in the batch');
          handled.push(...messages.map((m) => (m.payload as { n: number }).n));
        },
        10,
      );
      subs.push(sub);
      const dead = recorder();
      await subscribe('batch-dead-reader', stream.deadLetterSubject(durable('poisoned-batch')), dead.handler);
      await waitFor(() => dead.handled.length === 1 && handled.length === 2, 'the two good messages and the dead letter');
      expect([...handled].sort()).toEqual([1, 3]);
      expect(sizes[0]).toBeGreaterThan(1);
      expect(dead.handled[0]!.payload).toMatchObject({ payload: { n: 2, poison: true }, deliveries: DEFAULT_MAX_DELIVERIES });
    });

    it('filters subjects with * (one token) and > (one or more tokens)', async () => {
      const star = recorder();
      const tail = recorder();
      const exact = recorder();
      await subscribe('star', subject('evt.*.v1'), star.handler);
      await subscribe('tail', subject('evt.>'), tail.handler);
      await subscribe('exact', subject('evt.b.v1'), exact.handler);
      const published = ['evt.a.v1', 'evt.b.v1', 'evt.a.b.v1', 'cmd.a.v1', 'evt.a.v2', 'evt'];
      for (const [i, rest] of published.entries()) await stream.publish(subject(rest), { rest }, `f${i}`);
      await stream.publish(subject('evt.end.v1'), { rest: 'evt.end.v1' }, 'f-end');
      await stream.publish(subject('evt.b.v1'), { rest: 'evt.b.v1 again' }, 'f-end-b');
      // The last one published matches every filter: once each has it, each was offered all before it.
      const last = (rec: ReturnType<typeof recorder>) => rec.payloads().some((p) => (p as { rest: string }).rest === 'evt.b.v1 again');
      await waitFor(() => last(star) && last(tail) && last(exact), 'the last message on every filter');
      expect(star.payloads()).toEqual([{ rest: 'evt.a.v1' }, { rest: 'evt.b.v1' }, { rest: 'evt.end.v1' }, { rest: 'evt.b.v1 again' }]);
      expect(tail.payloads()).toEqual([
        { rest: 'evt.a.v1' },
        { rest: 'evt.b.v1' },
        { rest: 'evt.a.b.v1' },
        { rest: 'evt.a.v2' },
        { rest: 'evt.end.v1' },
        { rest: 'evt.b.v1 again' },
      ]);
      expect(exact.payloads()).toEqual([{ rest: 'evt.b.v1' }, { rest: 'evt.b.v1 again' }]);
    });

    it('delivers nothing more once stop() has resolved, and stop() waits for the handler in progress', async () => {
      let inHandler = false;
      let finished = 0;
      const sub = await subscribe('stopping', subject('evt.>'), async () => {
        inHandler = true;
        await sleep(150);
        finished += 1;
        inHandler = false;
      });
      await stream.publish(subject('evt.a'), { n: 1 }, 'st1');
      await waitFor(() => inHandler, 'the handler to start');
      await sub.stop();
      expect(inHandler).toBe(false);
      expect(finished).toBe(1);
      await stream.publish(subject('evt.a'), { n: 2 }, 'st2');
      // The durable consumer, resumed, is offered the message: the stopped subscription never took it.
      const resumed = recorder();
      await subscribe('stopping', subject('evt.>'), resumed.handler);
      await flush(resumed, subject('evt.z'));
      expect(resumed.payloads()).toEqual([{ n: 2 }]);
      expect(finished).toBe(1);
    });

    it('ends delivery on close()', async () => {
      const rec = recorder();
      await subscribe('closing', subject('evt.>'), rec.handler);
      await stream.publish(subject('evt.a'), { n: 1 }, 'c1');
      await waitFor(() => rec.handled.length === 1, 'the first message');
      subs = [];
      await stream.close();
      open = false;
      const other = await fixture.open();
      await other.publish(subject('evt.a'), { n: 2 }, 'c2');
      // The same durable consumer, on the stream opened again, is offered the message: the closed one never took it.
      const resumed = recorder();
      const sub = await other.subscribe(durable('closing'), subject('evt.>'), resumed.handler);
      await waitFor(() => resumed.handled.length > 0, 'the message on the stream opened again');
      await sub.stop();
      await other.close();
      expect(resumed.payloads()).toEqual([{ n: 2 }]);
      expect(rec.payloads()).toEqual([{ n: 1 }]);
    });
  });
}
