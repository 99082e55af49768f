import { describe, expect, it } from 'vitest';
import type { CannedReply } from '../../lib/inbox-types';
import { cannedQuery, matchCanned } from './canned-suggestions';

const reply = (shortcut: string, title: string): CannedReply => ({
  id: shortcut,
  projectId: 'p',
  shortcut,
  title,
  content: `${title}.`,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('canned replies in the composer', () => {
  it('asks only while the text is a slash and a shortcut', () => {
    expect(cannedQuery('/')).toBe('');
    expect(cannedQuery('/Ref')).toBe('ref');
    expect(cannedQuery('/refund please')).toBeNull();
    expect(cannedQuery('hello /ref')).toBeNull();
    expect(cannedQuery('')).toBeNull();
  });

  it('lists shortcuts starting with the query first, then titles containing it', () => {
    const replies = [reply('hello', 'Greeting'), reply('refund', 'Refund policy'), reply('ship', 'Shipping and refund times')];
    expect(matchCanned(replies, '').map((r) => r.shortcut)).toEqual(['hello', 'refund', 'ship']);
    expect(matchCanned(replies, 'ref').map((r) => r.shortcut)).toEqual(['refund', 'ship']);
    expect(matchCanned(replies, 'zzz')).toEqual([]);
  });
});
