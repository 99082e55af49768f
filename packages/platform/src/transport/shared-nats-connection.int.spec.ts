import { randomUUID } from 'node:crypto';
import { StringCodec } from 'nats';
import { describe, expect, it } from 'vitest';
import { infraAvailable, infraSuiteTitle, infraUrl } from '../testing/infra';
import { SharedNatsConnection } from './shared-nats-connection';

const available = await infraAvailable('nats');
const codec = StringCodec();

describe.skipIf(!available)(infraSuiteTitle('SharedNatsConnection', 'nats', available), () => {
  it('gives every lease the one connection, keeps it open until the last lease goes, and opens a new one after', async () => {
    const shared = new SharedNatsConnection(infraUrl('nats'));
    const [first, second] = await Promise.all([shared.lease(), shared.lease()]);
    expect(second.nc).toBe(first.nc);

    // A lease given back leaves the connection to the others: a request between two of its users still goes through.
    const subject = `shared${randomUUID().slice(0, 8)}.echo`;
    second.nc.subscribe(subject, { callback: (_err, msg) => msg.respond(msg.data) });
    await second.nc.flush();
    await first.release();
    await first.release(); // twice is once
    expect(first.nc.isClosed()).toBe(false);
    const answer = await second.nc.request(subject, codec.encode('ping'), { timeout: 2_000 });
    expect(codec.decode(answer.data)).toBe('ping');

    await second.release();
    expect(second.nc.isClosed()).toBe(true);

    const third = await shared.lease();
    expect(third.nc).not.toBe(first.nc);
    expect(third.nc.isClosed()).toBe(false);
    await third.release();
    expect(third.nc.isClosed()).toBe(true);
  });
});
