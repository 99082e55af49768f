import { describe, expect, it } from 'vitest';
import { copyJsonValue, jsonCopy } from './json-copy';

const viaText = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('jsonCopy', () => {
  it('gives what a JSON round trip gives', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
      move() {}
    }
    const cases: unknown[] = [
      { a: 1, b: 'two', c: true, d: null, e: [1, 'x', null, { f: [] }] },
      { when: new Date('2026-11-23T05:00:00.000Z'), nested: { at: [new Date(0)] } },
      { skipped: undefined, fn: () => 1, sym: Symbol('s'), kept: 0 },
      [undefined, () => 1, Symbol('s'), Number.NaN, Number.POSITIVE_INFINITY, -0],
      { custom: { toJSON: (key: string) => `custom:${key}` } },
      { boxed: [new Number(3), new String('s'), new Boolean(false)] },
      { point: new Point(1, 2), map: new Map([[1, 2]]) },
      JSON.parse('{"__proto__":{"polluted":true},"ok":1}'),
      'text',
      42,
      null,
    ];
    for (const value of cases) expect(jsonCopy(value)).toStrictEqual(viaText(value));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('shares nothing with its input', () => {
    const input = { list: [{ n: 1 }], inner: { m: 2 } };
    const output = jsonCopy(input) as typeof input;
    output.list[0]!.n = 9;
    output.inner.m = 9;
    expect(input).toEqual({ list: [{ n: 1 }], inner: { m: 2 } });
  });

  it('throws on a BigInt, as JSON does', () => {
    expect(() => jsonCopy({ big: 1n })).toThrow(TypeError);
  });
});

describe('copyJsonValue', () => {
  it('copies JSON values exactly, sharing nothing, "__proto__" kept as an own field', () => {
    const input = JSON.parse('{"a":[1,"x",null,{"b":true}],"__proto__":{"polluted":true},"n":{"m":-2.5}}');
    const output = copyJsonValue(input);
    expect(output).toStrictEqual(input);
    expect(Object.keys(output)).toEqual(['a', '__proto__', 'n']);
    output.a[3].b = false;
    output.n.m = 0;
    expect(input.a[3].b).toBe(true);
    expect(input.n.m).toBe(-2.5);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
