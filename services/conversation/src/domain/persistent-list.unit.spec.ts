import { describe, expect, it } from 'vitest';
import { PersistentList } from './persistent-list';

const listOf = (n: number): PersistentList<number> => {
  let list = PersistentList.empty<number>();
  for (let i = 0; i < n; i++) list = list.push(i);
  return list;
};

describe('PersistentList', () => {
  it('holds what was pushed, in order, across chunks', () => {
    const list = listOf(200);
    expect(list.length).toBe(200);
    expect(list.toArray()).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect([list.at(0), list.at(63), list.at(64), list.at(199), list.at(200), list.at(-1)]).toEqual([0, 63, 64, 199, undefined, undefined]);
  });

  it('leaves the list it came from as it was, after a push or a set', () => {
    const before = listOf(130);
    const pushed = before.push(130);
    const changed = before.set(70, -70);
    // Two pushes onto the same list do not see each other.
    const other = before.push(999);
    expect(before.toArray()).toEqual(Array.from({ length: 130 }, (_, i) => i));
    expect(pushed.at(130)).toBe(130);
    expect(other.at(130)).toBe(999);
    expect(changed.at(70)).toBe(-70);
    expect(changed.length).toBe(130);
    expect(pushed.at(70)).toBe(70);
  });

  it('refuses to set past its end', () => {
    expect(() => listOf(3).set(3, 0)).toThrow(RangeError);
  });
});
