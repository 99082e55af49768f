import { describe, expect, it } from 'vitest';
import { assertValidDurable, assertValidFilter, assertValidSubject, redeliveryDelay, subjectMatcher } from './subject-filter';

describe('subjectMatcher', () => {
  it('matches literal subjects exactly', () => {
    const m = subjectMatcher('conversation.evt.closed.v1');
    expect(m('conversation.evt.closed.v1')).toBe(true);
    expect(m('conversation.evt.closed.v2')).toBe(false);
    expect(m('conversation.evt.closed')).toBe(false);
    expect(m('conversation.evt.closed.v1.x')).toBe(false);
  });

  it('matches exactly one token with *', () => {
    const m = subjectMatcher('conversation.*.closed.*');
    expect(m('conversation.evt.closed.v1')).toBe(true);
    expect(m('conversation.evt.closed')).toBe(false);
    expect(m('conversation.evt.x.closed.v1')).toBe(false);
  });

  it('matches one or more trailing tokens with >', () => {
    const m = subjectMatcher('conversation.evt.>');
    expect(m('conversation.evt.closed')).toBe(true);
    expect(m('conversation.evt.closed.v1')).toBe(true);
    expect(m('conversation.evt')).toBe(false);
    expect(m('conversation.cmd.closed')).toBe(false);
    expect(subjectMatcher('>')('anything.at.all')).toBe(true);
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
