/**
 * Runs `measure` in `count` rounds and returns the round whose `score` is the median (the lower
 * middle one of an even count), with the lowest and highest score. The product and the baseline
 * take turns within each round, so a drift of the machine's speed over a run (large on shared
 * VMs) weighs on both sides of a ratio alike, and one odd round does not make the figure.
 */
export const medianRound = async <T>(
  count: number,
  measure: () => Promise<T>,
  score: (round: T) => number,
): Promise<{ round: T; range: [number, number] }> => {
  const rounds: T[] = [];
  for (let i = 0; i < count; i++) rounds.push(await measure());
  const sorted = [...rounds].sort((a, b) => score(a) - score(b));
  return { round: sorted[(sorted.length - 1) >> 1]!, range: [score(sorted[0]!), score(sorted.at(-1)!)] };
};
