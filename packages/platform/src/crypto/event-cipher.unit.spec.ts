import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/clock.port';
import { InMemoryKeyStore } from '../key-store/in-memory.key-store';
import { EventCipher } from './event-cipher';
import { isSealed } from './field-cipher';

const policy = {
  Posted: { content: '', pageContext: null },
  Started: { pageUrl: null },
};

const posted = { type: 'Posted', data: { messageId: 'm1', content: 'hi MARKER', pageContext: { url: 'https://x.test', title: 'T' } } };
const other = { type: 'Closed', data: { closeReason: 'done' } };

describe('EventCipher', () => {
  it('seals only the personal fields and opens them back', async () => {
    const cipher = new EventCipher(new InMemoryKeyStore(), policy);
    const [sealed, untouched] = await cipher.seal('c1', [posted, other]);
    const data = sealed!.data as Record<string, unknown>;
    expect(data.messageId).toBe('m1');
    expect(isSealed(data.content)).toBe(true);
    expect(isSealed(data.pageContext)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain('MARKER');
    expect(untouched).toEqual(other);
    expect(posted.data.content).toBe('hi MARKER');
    expect(await cipher.open('c1', [sealed!, untouched!])).toEqual([posted, other]);
  });

  it('keeps null and absent fields as they are, and seals a value once', async () => {
    const cipher = new EventCipher(new InMemoryKeyStore(), policy);
    const event = { type: 'Posted', data: { messageId: 'm2', content: 'x', pageContext: null } };
    const [sealed] = await cipher.seal('c1', [event]);
    expect((sealed!.data as { pageContext: unknown }).pageContext).toBeNull();
    expect(isSealed((sealed!.data as { content: unknown }).content)).toBe(true);
    const [again] = await cipher.seal('c1', [sealed!]);
    expect(again).toEqual(sealed);
    const [started] = await cipher.seal('c1', [{ type: 'Started', data: {} }]);
    expect(started!.data).toEqual({});
  });

  it('does not open under another subject key', async () => {
    const keys = new InMemoryKeyStore();
    const cipher = new EventCipher(keys, policy);
    const [sealed] = await cipher.seal('c1', [posted]);
    await keys.createOrGet('c2');
    await expect(cipher.open('c2', [sealed!])).rejects.toThrow(/does not open/);
  });

  it('reads erased values once the key is erased, never failing', async () => {
    const keys = new InMemoryKeyStore();
    const cipher = new EventCipher(keys, policy);
    const sealed = await cipher.seal('c1', [posted, { type: 'Started', data: { pageUrl: 'https://x.test/p' } }]);
    await cipher.erase(['c1']);
    expect(await keys.get('c1')).toBeNull();
    expect(await cipher.open('c1', sealed)).toEqual([
      { type: 'Posted', data: { messageId: 'm1', content: '', pageContext: null } },
      { type: 'Started', data: { pageUrl: null } },
    ]);
  });

  it('sees a key erased by another instance once its cached copy expires', async () => {
    const keys = new InMemoryKeyStore();
    const clock = new ManualClock();
    const here = new EventCipher(keys, policy, clock);
    const elsewhere = new EventCipher(keys, policy, clock);
    const sealed = await here.seal('c1', [posted]);
    await elsewhere.erase(['c1']);
    expect((await here.open('c1', sealed))[0]!.data).toMatchObject({ content: 'hi MARKER' });
    clock.advance(31_000);
    expect((await here.open('c1', sealed))[0]!.data).toMatchObject({ content: '' });
  });

  it('gives for events just sealed what opening them gives, from their plain values and without decrypting', async () => {
    const cipher = new EventCipher(new InMemoryKeyStore(), policy);
    const withDate = { type: 'Posted', data: { messageId: 'm3', content: 'x', pageContext: { at: new Date(0), gone: undefined } } };
    const plain = [posted, other, withDate];
    // As a store returns them: JSON copies.
    const stored = JSON.parse(JSON.stringify(await cipher.seal('c1', plain))) as typeof plain;
    const opened = await cipher.open('c1', stored);
    expect(await cipher.openSealedFrom('c1', stored, plain)).toEqual(opened);
    expect((opened[2]!.data as { pageContext: unknown }).pageContext).toEqual({ at: '1970-01-01T00:00:00.000Z' });
    // The sealed values are not decrypted: their plain values are what the caller sealed (here, a
    // key store that no longer has the key would make opening read them as erased).
    await cipher.erase(['c1']);
    expect(await cipher.openSealedFrom('c1', stored, plain)).toEqual(opened);
  });

  it('opens a value that was sealed already in the plain events', async () => {
    const cipher = new EventCipher(new InMemoryKeyStore(), policy);
    const [sealedBefore] = await cipher.seal('c1', [posted]);
    const plain = [sealedBefore!];
    const stored = await cipher.seal('c1', plain);
    expect(await cipher.openSealedFrom('c1', stored, plain)).toEqual([posted]);
  });

  it('passes events written before encryption through', async () => {
    const cipher = new EventCipher(new InMemoryKeyStore(), policy);
    expect(await cipher.open('c9', [posted])).toEqual([posted]);
  });
});
