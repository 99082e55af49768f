import { describe, expect, it } from 'vitest';
import { cosine, groupQuestions } from './question-grouping';

let n = 0;
const newId = () => `g${++n}`;

describe('groupQuestions', () => {
  it('puts similar vectors in one group and a different one in another', () => {
    const { assigned, created, changed } = groupQuestions(
      [],
      [
        { questionId: 'a', vector: [1, 0, 0] },
        { questionId: 'b', vector: [0.95, 0.1, 0] },
        { questionId: 'c', vector: [0, 1, 0] },
      ],
      newId,
    );
    expect(assigned[0]?.groupId).toBe(assigned[1]?.groupId);
    expect(assigned[2]?.groupId).not.toBe(assigned[0]?.groupId);
    expect(created.size).toBe(2);
    expect(changed.find((g) => g.id === assigned[0]?.groupId)?.size).toBe(2);
  });

  it('joins an existing group when close enough, and moves its centroid towards the question', () => {
    const existing = { id: 'old', centroid: [1, 0], size: 3 };
    const { assigned, changed, created } = groupQuestions([existing], [{ questionId: 'q', vector: [0.9, 0.3] }], newId);
    expect(assigned).toEqual([{ questionId: 'q', groupId: 'old' }]);
    expect(created.size).toBe(0);
    const moved = changed[0];
    expect(moved?.size).toBe(4);
    expect(cosine(moved?.centroid ?? [], [0.9, 0.3])).toBeGreaterThan(cosine([1, 0], [0.9, 0.3]));
  });

  it('chooses the most similar of several groups', () => {
    const groups = [
      { id: 'x', centroid: [1, 0], size: 1 },
      { id: 'y', centroid: [0.8, 0.6], size: 1 },
    ];
    expect(groupQuestions(groups, [{ questionId: 'q', vector: [0.75, 0.66] }], newId).assigned[0]?.groupId).toBe('y');
  });
});
