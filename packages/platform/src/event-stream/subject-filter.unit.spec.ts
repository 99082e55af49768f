import { describe, expect, it } from 'vitest';
import { assertValidDurable, assertValidFilter, assertValidSubject, redeliveryDelay, subjectMatcher } from './subject-filter';

describe('subjectMatcher', () => {
  // * stands for exactly one token, > for one or more trailing tokens; anything else matches itself.
  it.each([
    {
      filter: 'conversation.evt.closed.v1',
      matches: ['conversation.evt.closed.v1'],
      misses: ['conversation.evt.closed.v2', 'conversation.evt.closed', 'conversation.evt.closed.v1.x'],
    },
    {
      filter: 'conversation.*.closed.*',
      matches: ['conversation.evt.closed.v1'],
      misses: ['conversation.evt.closed', 'conversation.evt.x.closed.v1'],
    },
    {
      filter: 'conversation.evt.>',
      matches: ['conversation.evt.closed', 'conversation.evt.closed.v1'],
      misses: ['conversation.evt', 'conversation.cmd.closed'],
    },
    { filter: '>', matches: ['anything.at.all'], misses: [] },
  ])('$filter', ({ filter, matches, misses }) => {
    const matcher = subjectMatcher(filter);
    expect(matches.filter((subject) => !matcher(subject))).toEqual([]);
    expect(misses.filter(matcher)).toEqual([]);
  });
});

describe('validation', () => {
  it('accepts wildcards only as whole tokens, and > only last', () => {
    expect(() => assertValidFilter('a.*.>')).not.toThrow();
    expect(() => assertValidFilter('a.>.b')).toThrow();
    expect(() => assertValidFilter('a.b*')).toThrow();
    expect(() => assertValidFilter('a..b')).toThrow();
    expect(() => assertValidFilter('')).toThrow();
  });

  it('refuses wildcards, empty tokens and spaces in a published subject', () => {
    expect(() => assertValidSubject('a.b.c')).not.toThrow();
    for (const bad of ['a.*', 'a.>', 'a..b', '.a', 'a b']) expect(() => assertValidSubject(bad)).toThrow();
  });

  it('accepts durable names NATS accepts and that are safe file names', () => {
    expect(() => assertValidDurable('analytics-feedback_1')).not.toThrow();
    for (const bad of ['', 'a.b', 'a*', '../x', 'a b']) expect(() => assertValidDurable(bad)).toThrow();
  });
});

describe('redeliveryDelay', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => redeliveryDelay(n, 100))).toEqual([100, 200, 400, 800]);
    expect(redeliveryDelay(20, 100)).toBe(5_000);
    expect(redeliveryDelay(0, 100)).toBe(100);
  });
});
