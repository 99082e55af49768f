import { createTestInfrastructure, type TestInfrastructure } from '@palaver/platform/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RetentionRunRepository } from './retention-run.repository';

let infra: TestInfrastructure;
beforeEach(async () => {
  infra = await createTestInfrastructure();
});
afterEach(() => infra.cleanup());

describe('RetentionRunRepository', () => {
  it('gives each day to one caller, concurrent ones and other instances included', async () => {
    const a = new RetentionRunRepository(infra.documents);
    const b = new RetentionRunRepository(infra.documents);
    expect((await Promise.all([a.claim('2026-05-01'), b.claim('2026-05-01'), a.claim('2026-05-01')])).filter(Boolean)).toHaveLength(1);
    expect(await b.claim('2026-05-01')).toBe(false);
    expect(await b.claim('2026-04-30')).toBe(false);
    const next = await Promise.all([a.claim('2026-05-02'), b.claim('2026-05-02')]);
    expect(next.filter(Boolean)).toHaveLength(1);
  });
});
