/**
 * Grouping of unanswered questions by meaning: each question joins the open group whose centroid
 * is most similar to it, when at least GROUP_SIMILARITY, else starts a group. Similarities are
 * cosines of the search service's query embeddings; with the local embedder a rephrased question
 * scores 0.9 and more, a different question on the same subject 0.45 to 0.68 (see
 * platform's grounded-answer.ts), so the threshold sits between the two.
 */
export const GROUP_SIMILARITY = 0.75;

export interface GroupCentroid {
  id: string;
  /** Unit vector: the normalized sum of its questions' vectors. */
  centroid: number[];
  size: number;
}

export interface GroupedQuestion {
  questionId: string;
  groupId: string;
}

const dot = (a: number[], b: number[]): number => {
  let sum = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) sum += (a[i] as number) * (b[i] as number);
  return sum;
};

const normalize = (v: number[]): number[] => {
  const norm = Math.sqrt(dot(v, v));
  return norm === 0 ? v : v.map((x) => x / norm);
};

export const cosine = (a: number[], b: number[]): number => dot(normalize(a), normalize(b));

/**
 * Assigns `questions` (in the order given) to `groups`, which it may extend: the assignments, the
 * groups that changed (new ones included) and the ids of the new ones. `newId` names a new group.
 */
export const groupQuestions = (
  groups: ReadonlyArray<GroupCentroid>,
  questions: ReadonlyArray<{ questionId: string; vector: number[] }>,
  newId: () => string,
  threshold = GROUP_SIMILARITY,
): { assigned: GroupedQuestion[]; changed: GroupCentroid[]; created: Set<string> } => {
  const current = new Map(groups.map((g) => [g.id, g]));
  const changed = new Set<string>();
  const created = new Set<string>();
  const assigned: GroupedQuestion[] = [];
  for (const { questionId, vector } of questions) {
    const unit = normalize(vector);
    let best: GroupCentroid | null = null;
    let bestScore = threshold;
    for (const group of current.values()) {
      const score = dot(group.centroid, unit);
      if (score >= bestScore) {
        best = group;
        bestScore = score;
      }
    }
    if (best === null) {
      best = { id: newId(), centroid: unit, size: 1 };
      created.add(best.id);
    } else {
      const { id, centroid, size } = best;
      best = { id, centroid: normalize(centroid.map((x, i) => x * size + (unit[i] ?? 0))), size: size + 1 };
    }
    current.set(best.id, best);
    changed.add(best.id);
    assigned.push({ questionId, groupId: best.id });
  }
  return { assigned, changed: [...changed].map((id) => current.get(id) as GroupCentroid), created };
};
