import { describe, expect, it } from 'vitest';
import { utf8 } from './utf8';

describe('utf8', () => {
  it("gives TextEncoder's bytes, for multi-byte text too", () => {
    for (const text of ['', 'PUB a.b 12\r\n', '{"text":"Grüße, 你好 👋"}']) {
      expect([...utf8(text)]).toEqual([...new TextEncoder().encode(text)]);
    }
  });

  it('gives bytes that later calls do not change (slices of a shared pool)', () => {
    const first = utf8('first packet');
    const copy = [...first];
    for (let i = 0; i < 2_000; i++) utf8(`packet ${i}`);
    expect([...first]).toEqual(copy);
  });
});
