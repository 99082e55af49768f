import { randomUUID } from 'node:crypto';
import { AccountMessages as A, type NewAuditEntry, type ServiceMessage } from '@palaver/contracts';
import { AUDIT_OUTBOX, AuditOutbox, ManualClock, type RunningService } from '@palaver/platform';
import { createTestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startIdentityService } from './index';

/**
 * Another service's audit outbox against the real identity service: entries survive identity
 * being down, arrive once it is back, and arrive once even when delivered twice.
 */
let infra: Awaited<ReturnType<typeof createTestInfrastructure>>;
let clock: ManualClock;
let outbox: AuditOutbox;
let identity: RunningService | null;

const PROJECT = randomUUID();
const actor = { type: 'user', id: randomUUID(), email: 'wendy@example.com' } as const;
const entry = (id: string): NewAuditEntry => ({ projectId: PROJECT, actor, action: 'document.deleted', target: { type: 'document', id } });
const logged = async () => (await infra.services.send(A.listAudit, { projectId: PROJECT, query: { limit: 50 } })).data;
const pending = () => infra.documents.collection(AUDIT_OUTBOX).find({});

beforeEach(async () => {
  clock = new ManualClock(new Date());
  infra = await createTestInfrastructure({ clock });
  outbox = new AuditOutbox(infra.documents, infra.services, clock);
  identity = null;
});

afterEach(async () => {
  vi.restoreAllMocks();
  await outbox.onModuleDestroy();
  await identity?.close();
  await infra.cleanup();
});

describe('audit outbox → identity', () => {
  it('keeps the entry of a change made while identity is down and delivers it once identity is back, exactly once', async () => {
    await outbox.onApplicationBootstrap();
    const documentId = randomUUID();
    // The change itself is not held up by the log being unreachable.
    expect(await outbox.around(entry(documentId), async () => 'deleted')).toBe('deleted');
    expect(await pending()).toHaveLength(1);

    identity = await startIdentityService(infra);
    // The sweep delivers it, without another change to prompt it.
    await vi.waitFor(async () => expect(await logged()).toHaveLength(1), { timeout: 12_000, interval: 200 });
    const [stored] = await logged();
    expect(stored).toMatchObject({ projectId: PROJECT, actor, action: 'document.deleted', target: { type: 'document', id: documentId } });
    expect(stored?.changes).toBeUndefined();
    expect(await pending()).toEqual([]);
    await outbox.flush();
    expect(await logged()).toHaveLength(1);
  });

  it('appends an entry once when identity stored it but its answer was lost, and the relay sent it again', async () => {
    identity = await startIdentityService(infra);
    const send = infra.services.send.bind(infra.services);
    let lost = 0;
    vi.spyOn(infra.services, 'send').mockImplementation((async (message: ServiceMessage, request: unknown, options: unknown) => {
      const answer = await send(message as never, request as never, options as never);
      if (message === A.appendAudit && lost++ === 0) throw new Error('reply lost');
      return answer;
    }) as never);

    const documentId = randomUUID();
    await outbox.around(entry(documentId), async () => undefined);
    expect(lost).toBe(1);
    expect(await pending()).toHaveLength(1);
    await outbox.flush();
    expect(lost).toBe(2);
    expect(await pending()).toEqual([]);
    const log = await logged();
    expect(log.map((e) => e.target.id)).toEqual([documentId]);
  });

  it('drops the entry of a change that failed: nothing reaches the log', async () => {
    identity = await startIdentityService(infra);
    await expect(
      outbox.around(entry(randomUUID()), async () => {
        throw new Error('store refused');
      }),
    ).rejects.toThrow('store refused');
    expect(await pending()).toEqual([]);
    await outbox.flush();
    expect(await logged()).toEqual([]);
  });

  it('relays the entry of a change a crash interrupted once it cannot still be running, marked outcome unknown', async () => {
    identity = await startIdentityService(infra);
    const documentId = randomUUID();
    let finish = (): void => undefined;
    const running = outbox.around(entry(documentId), () => new Promise<void>((resolve) => (finish = resolve)));
    await vi.waitFor(async () => expect(await pending()).toHaveLength(1));
    await outbox.flush();
    expect(await logged()).toEqual([]);

    clock.advance(60_000);
    await outbox.flush();
    expect(await logged()).toMatchObject([{ target: { id: documentId }, changes: { outcome: 'unknown' } }]);
    finish();
    await running;
    await outbox.flush();
    expect(await logged()).toHaveLength(1);
  });
});
