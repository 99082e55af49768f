import { describe, expect, it } from 'vitest';
import { withRetries } from './mongo-options';

describe('withRetries (index creation during a primary election)', () => {
  it('tries again until the call succeeds', async () => {
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('not primary');
        return 'created';
      },
      5,
      1,
    );
    expect(result).toBe('created');
    expect(calls).toBe(3);
  });

  it('gives up after its tries with the last error', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw new Error(`not primary ${calls}`);
        },
        3,
        1,
      ),
    ).rejects.toThrow('not primary 3');
    expect(calls).toBe(3);
  });
});
