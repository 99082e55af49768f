import { describe, expect, it } from 'vitest';
import { createTestInfrastructure } from './test-infrastructure';

describe('createTestInfrastructure', () => {
  it('opens every port on its embedded adapter and reopens the same data after a restart', async () => {
    const first = await createTestInfrastructure();
    expect(first.transport.kind).toBe('in-process');
    await first.documents.collection<{ _id: string; n: number }>('things').insertOne({ _id: 'a', n: 1 });
    await first.eventStore.append('s-1', 0, [
      {
        eventId: '7d4c9c6e-4b7a-4f55-9a53-0d7c1a7c9b11',
        type: 'T',
        data: {},
        projectId: '7d4c9c6e-4b7a-4f55-9a53-0d7c1a7c9b12',
        occurredAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
    await first.close();

    const second = await createTestInfrastructure({ dataDir: first.dataDir });
    expect(await second.documents.collection('things').findOne({ _id: 'a' })).toEqual({ _id: 'a', n: 1 });
    expect(await second.eventStore.readStream('s-1')).toHaveLength(1);
    await second.cleanup();
  });
});
