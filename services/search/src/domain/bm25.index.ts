/**
 * Okapi BM25 over a changing set of pre-analyzed texts, held in memory as an inverted index,
 * with Lucene's idf (never negative). The service uses Robertson's k1 1.2 and b 0.75, the
 * textbook defaults, not tuned on a benchmark.
 */
export interface Bm25Options {
  k1: number;
  b: number;
}

const DEFAULT_BM25: Bm25Options = { k1: 1.2, b: 0.75 };

export interface Bm25Hit {
  id: string;
  score: number;
}

interface Posting {
  slots: number[];
  freqs: number[];
}

export class Bm25Index {
  private readonly postings = new Map<string, Posting>();
  private readonly slotOf = new Map<string, number>();
  /** Per slot: its id (null once removed) and its length in terms. */
  private ids: Array<string | null> = [];
  private lengths: number[] = [];
  private terms: string[][] = [];
  private totalLength = 0;
  private removed = 0;
  /** Scratch accumulator reused by every search (searches are synchronous). */
  private scores = new Float64Array(0);

  constructor(private readonly options: Bm25Options = DEFAULT_BM25) {}

  get size(): number {
    return this.slotOf.size;
  }

  /** Terms of the texts it holds, repeats included (what its memory grows with). */
  get tokenCount(): number {
    return this.totalLength;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Adds the text `id` made of `tokens` (replacing what `id` held). */
  add(id: string, tokens: readonly string[]): void {
    this.remove(id);
    const slot = this.ids.length;
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [term, freq] of counts) {
      const posting = this.postingOf(term);
      posting.slots.push(slot);
      posting.freqs.push(freq);
    }
    this.ids.push(id);
    this.lengths.push(tokens.length);
    this.terms.push([...counts.keys()]);
    this.slotOf.set(id, slot);
    this.totalLength += tokens.length;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.ids[slot] = null;
    this.totalLength -= this.lengths[slot]!;
    this.removed += 1;
    // Postings keep dead slots until they outnumber the live ones: then rebuild them.
    if (this.removed > 64 && this.removed > this.slotOf.size) this.compact();
  }

  /** The best `limit` texts for the query, best first; texts sharing no term are left out. */
  search(queryTokens: readonly string[], limit: number): Bm25Hit[] {
    if (this.slotOf.size === 0 || limit <= 0) return [];
    if (this.scores.length < this.ids.length) this.scores = new Float64Array(this.ids.length * 2);
    const scores = this.scores;
    const touched: number[] = [];
    for (const term of new Set(queryTokens)) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = this.idf(term);
      if (idf <= 0) continue;
      const { slots, freqs } = posting;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i]!;
        if (this.ids[slot] === null) continue;
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += idf * this.saturate(freqs[i]!, slot);
      }
    }
    const best = topSlots(touched, scores, limit).map((slot) => ({ id: this.ids[slot]!, score: scores[slot]! }));
    for (const slot of touched) scores[slot] = 0;
    return best.sort(byScoreThenId);
  }

  /** The BM25 score of each of `ids` that the index holds (0 when it shares no term with the query). */
  scoreOf(queryTokens: readonly string[], ids: readonly string[]): Bm25Hit[] {
    const query = new Set(queryTokens);
    const out: Bm25Hit[] = [];
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      let score = 0;
      for (const term of this.terms[slot]!) {
        if (!query.has(term)) continue;
        const posting = this.postings.get(term)!;
        const i = posting.slots.lastIndexOf(slot);
        score += this.idf(term) * this.saturate(posting.freqs[i]!, slot);
      }
      out.push({ id, score });
    }
    return out;
  }

  /** Lucene's idf over the live texts: log(1 + (N - df + 0.5) / (df + 0.5)). */
  private postingOf(term: string): Posting {
    let posting = this.postings.get(term);
    if (!posting) {
      posting = { slots: [], freqs: [] };
      this.postings.set(term, posting);
    }
    return posting;
  }

  private idf(term: string): number {
    const posting = this.postings.get(term);
    if (!posting) return 0;
    let df = posting.slots.length;
    if (this.removed > 0) df = posting.slots.reduce((n, slot) => n + (this.ids[slot] === null ? 0 : 1), 0);
    const n = this.slotOf.size;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  private saturate(freq: number, slot: number): number {
    const { k1, b } = this.options;
    const avgLength = this.totalLength / this.slotOf.size || 1;
    const norm = k1 * (1 - b + (b * this.lengths[slot]!) / avgLength);
    return (freq * (k1 + 1)) / (freq + norm);
  }

  private compact(): void {
    const live: Array<[string, number]> = [];
    for (const [id, slot] of this.slotOf) live.push([id, slot]);
    const old = { postings: new Map(this.postings), terms: this.terms, lengths: this.lengths };
    this.postings.clear();
    this.slotOf.clear();
    this.ids = [];
    this.lengths = [];
    this.terms = [];
    this.totalLength = 0;
    this.removed = 0;
    for (const [id, oldSlot] of live.sort((x, y) => x[1] - y[1])) {
      const slot = this.ids.length;
      for (const term of old.terms[oldSlot]!) {
        const posting = old.postings.get(term)!;
        const freq = posting.freqs[posting.slots.lastIndexOf(oldSlot)]!;
        const fresh = this.postingOf(term);
        fresh.slots.push(slot);
        fresh.freqs.push(freq);
      }
      this.ids.push(id);
      this.lengths.push(old.lengths[oldSlot]!);
      this.terms.push(old.terms[oldSlot]!);
      this.slotOf.set(id, slot);
      this.totalLength += old.lengths[oldSlot]!;
    }
  }
}

const byScoreThenId = (x: Bm25Hit, y: Bm25Hit): number => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/**
 * The `limit` slots with the highest scores, in no particular order: a min-heap of the best so
 * far, so a query touching most of a large index does not sort all of it.
 */
const topSlots = (slots: readonly number[], scores: Float64Array, limit: number): number[] => {
  if (slots.length <= limit) return [...slots];
  const heap: number[] = [];
  const less = (a: number, b: number): boolean => scores[a]! < scores[b]! || (scores[a] === scores[b] && a > b);
  const down = (from: number): void => {
    for (let i = from; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const slot of slots) {
    if (heap.length < limit) {
      heap.push(slot);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!less(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (less(heap[0]!, slot)) {
      heap[0] = slot;
      down(0);
    }
  }
  return heap;
};
