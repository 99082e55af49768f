import type { Embedder, TermWeighting } from './embedder.port';

/** Terms are counted for document frequencies in this many hashed buckets. */
const TERM_BUCKETS = 8192;
/** Independent of the seed that places features in dimensions, so the two kinds of collision are unrelated. */
const TERM_BUCKET_SEED = 0x2545f491;

/**
 * A deterministic embedder that needs no model download: feature hashing of word unigrams
 * (lightly stemmed, stop words removed, a small synonym layer folding paraphrases onto one
 * concept), word bigrams and character n-grams into a fixed dimension, with sublinear term
 * frequency and signed buckets, L2-normalized. Cosine similarity of two vectors then behaves
 * like a TF-weighted bag-of-words overlap that tolerates inflection, typos and common
 * synonyms. The vectors carry no corpus statistics; `termWeighting` lets the index weight a
 * query's terms by their document frequencies (each word's IDF also scales its bigrams and
 * character n-grams), which bench/retrieval.bench.ts measures.
 */
export class LocalEmbedder implements Embedder {
  readonly name: string;
  readonly termWeighting: TermWeighting;
  /**
   * Where `embedOne` sums a text's features, which dimensions it touched (marked, and listed in
   * the order touched): one set per embedder, zero again after every call (which never yields).
   */
  private readonly scratch: Float64Array;
  private readonly touchedMarks: Uint8Array;
  private readonly touched: Uint32Array;
  /**
   * A vector of zeros whose array already holds doubles: copying it is a block copy, where an
   * array of small integers (what `fill(0)` makes) is converted element by element at the first
   * double stored in it.
   */
  private readonly zeros: number[];

  constructor(readonly dimensions = 2048) {
    if (!Number.isInteger(dimensions) || dimensions < 64) throw new Error('LocalEmbedder needs at least 64 dimensions');
    this.name = `local-hash-v1-${dimensions}`;
    this.scratch = new Float64Array(dimensions);
    this.touchedMarks = new Uint8Array(dimensions);
    this.touched = new Uint32Array(dimensions);
    this.zeros = new Array<number>(dimensions).fill(0.5).fill(0);
    this.termWeighting = {
      // Change the version whenever analyzeText or the bucketing changes: counted statistics then no longer apply.
      scheme: `local-terms-v2-${TERM_BUCKETS}`,
      buckets: TERM_BUCKETS,
      termBuckets: (text) => [...new Set(analyzeText(text).map(({ term }) => termBucket(term)))].sort((a, b) => a - b),
      embedWeightedQuery: async (text, weight) => this.embedOne(text, (term) => weight(termBucket(term))),
    };
  }

  async embed(texts: string[], _kind: 'query' | 'document'): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  /** `termWeight` scales each term's features (1 for every term when absent). */
  embedOne(text: string, termWeight?: (term: string) => number): number[] {
    // A text touches a few dozen of the dimensions: only those are summed and divided, in
    // ascending order, which gives the same floats as a pass over every dimension (adding a zero
    // changes no sum) at a fraction of the cost, most of a short query's embedding.
    const vector = this.scratch;
    const marks = this.touchedMarks;
    let count = 0;
    for (const [feature, { count: times, weight: termScale }] of extractFeatures(text, termWeight)) {
      const weight = featureWeight(feature) * (1 + Math.log(times)) * termScale;
      const h = murmur3(feature);
      const index = (h >>> 1) % this.dimensions;
      if (marks[index] === 0) {
        marks[index] = 1;
        this.touched[count++] = index;
      }
      vector[index]! += h & 1 ? weight : -weight;
    }
    const touched = this.touched.subarray(0, count).sort(); // a typed array sorts numerically, natively
    let norm = 0;
    for (const i of touched) norm += vector[i]! * vector[i]!;
    norm = Math.sqrt(norm);
    const out = this.zeros.slice();
    for (const i of touched) {
      if (norm > 0) out[i] = vector[i]! / norm;
      vector[i] = 0;
      marks[i] = 0;
    }
    return out;
  }
}

/** The bucket a term's document frequency is counted in. */
export const termBucket = (term: string): number => murmur3(term, TERM_BUCKET_SEED) % TERM_BUCKETS;

/** Feature keys start with their kind: w (word or concept), b (word bigram), c (character n-gram). */
const featureWeight = (feature: string): number => {
  switch (feature.charAt(0)) {
    case 'w':
      return 1;
    case 'b':
      return 0.3;
    default:
      // Tuned on BEIR SciFact (bench/retrieval.bench.ts) without term weighting: long, rare words
      // carry more n-grams, which stands in for IDF when there are no statistics.
      return 0.25;
  }
};

const CHAR_GRAM_SIZES = [3, 4, 5];

interface Feature {
  count: number;
  /** The weight of the term it comes from: a bigram takes the mean of its two, an n-gram the largest of its words'. */
  weight: number;
}

/** Feature keys (tagged by their first letter) with their counts and term weights. */
const extractFeatures = (text: string, termWeight: (term: string) => number = () => 1): Map<string, Feature> => {
  const features = new Map<string, Feature>();
  const add = (key: string, weight: number): void => {
    const feature = features.get(key);
    if (feature) {
      feature.count += 1;
      feature.weight = Math.max(feature.weight, weight);
    } else features.set(key, { count: 1, weight });
  };
  const terms = analyzeText(text);
  const weights = new Map<string, number>();
  const weightOf = (term: string): number => {
    let w = weights.get(term);
    if (w === undefined) {
      w = termWeight(term);
      weights.set(term, w);
    }
    return w;
  };
  let previous: string | null = null;
  for (const { surface, term } of terms) {
    const weight = weightOf(term);
    add(`w${term}`, weight);
    if (previous !== null && previous !== term) add(`b${previous} ${term}`, (weightOf(previous) + weight) / 2);
    previous = term;
    if (surface.length >= 4) {
      const padded = `<${surface}>`;
      for (const n of CHAR_GRAM_SIZES) {
        for (let i = 0; i + n <= padded.length; i++) add(`c${padded.slice(i, i + n)}`, weight);
      }
    }
  }
  return features;
};

export interface AnalyzedTerm {
  /** The normalized word as written (lowercase, no diacritics). */
  surface: string;
  /** Its stem, or the concept it stands for when it belongs to a synonym group. */
  term: string;
}

/**
 * Lowercase, strip diacritics, split on anything that is not a letter or digit, fold two-word
 * synonyms ("money back"), drop stop words, stem, fold one-word synonyms.
 */
export const analyzeText = (text: string): AnalyzedTerm[] => {
  const words = normalizeWords(text);
  const out: AnalyzedTerm[] = [];
  for (let i = 0; i < words.length; i++) {
    const surface = words[i]!;
    const next = words[i + 1];
    const phrase = next === undefined ? undefined : PHRASE_SYNONYMS.get(`${surface} ${next}`);
    if (phrase !== undefined) {
      out.push({ surface: `${surface}${next}`, term: phrase });
      i++;
      continue;
    }
    if (STOP_WORDS.has(surface)) continue;
    const stem = lightStem(surface);
    out.push({ surface, term: SYNONYMS.get(stem) ?? stem });
  }
  return out;
};

const normalizeWords = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);

const VOWEL = /[aeiouy]/;

/**
 * A light English stemmer: plurals, -ing, -ed, -ly and a final e, so that "shipping", "shipped"
 * and "ships" meet at "ship", and "covering"/"covers"/"cover" at "cover". Short words are kept.
 */
export const lightStem = (word: string): string => {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:ss|sh|ch|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);

  if (w.endsWith('ing') && w.length > 5 && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ed') && w.length > 4 && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  else if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);

  if (w.endsWith('y') && w.length > 3 && !VOWEL.test(w.charAt(w.length - 2))) w = `${w.slice(0, -1)}i`;
  while (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
};

const undouble = (w: string): string => (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w);

/**
 * Words that mean the same thing in a support knowledge base. Each group folds onto the stem
 * of its first word, so a question may use either wording and still meet the page.
 */
const SYNONYM_GROUPS: string[][] = [
  ['warranty', 'warranties', 'guarantee', 'guaranteed', 'guaranty'],
  ['price', 'prices', 'pricing', 'priced', 'cost', 'costs', 'fee', 'fees', 'expensive', 'cheap'],
  ['ship', 'shipping', 'shipment', 'deliver', 'delivery', 'deliveries', 'dispatch', 'postage', 'courier', 'carrier', 'arrive', 'arrival'],
  ['refund', 'refunds', 'refunded', 'return', 'returns', 'returned', 'reimburse', 'reimbursement', 'money back', 'send back'],
  ['hours', 'hour', 'open', 'opening', 'opened', 'closing', 'schedule', 'timetable'],
  ['cancel', 'cancellation', 'cancelled', 'canceled', 'terminate', 'termination'],
  ['buy', 'purchase', 'purchasing', 'purchased', 'bought'],
  ['help', 'support', 'assistance', 'assist', 'helpdesk'],
  ['login', 'logon', 'signin', 'log in', 'sign in'],
  ['password', 'passcode', 'passphrase'],
  ['phone', 'telephone', 'phone number'],
  ['address', 'location', 'located', 'directions'],
  ['discount', 'coupon', 'promo', 'promotion', 'voucher', 'rebate'],
  ['pay', 'payment', 'paying', 'paid', 'billing', 'billed', 'checkout'],
  ['defect', 'defects', 'defective', 'faulty', 'broken', 'damaged', 'damage', 'malfunction', 'malfunctioning'],
  ['fast', 'quick', 'quickly', 'express', 'rapid', 'speedy'],
  ['stock', 'availability', 'available', 'inventory', 'unavailable'],
  ['subscription', 'subscribe', 'membership'],
  ['delete', 'remove', 'erase'],
  ['modify', 'change', 'edit', 'alter', 'amend'],
  ['contact', 'email', 'e mail'],
  ['employee', 'staff', 'personnel'],
  ['big', 'large', 'huge'],
  ['small', 'little', 'tiny'],
  ['begin', 'start', 'commence'],
  ['car', 'vehicle', 'automobile'],
  ['doctor', 'physician'],
  ['child', 'children', 'kid', 'kids'],
];

/** One-word members by stem; members of two words (written with a space or a hyphen) by their words. */
const { SYNONYMS, PHRASE_SYNONYMS } = (() => {
  const single = new Map<string, string>();
  const phrases = new Map<string, string>();
  for (const group of SYNONYM_GROUPS) {
    const canonical = `~${lightStem(group[0]!)}`;
    for (const member of group) {
      const words = normalizeWords(member);
      if (words.length === 1) single.set(lightStem(words[0]!), canonical);
      else if (words.length === 2) {
        phrases.set(words.join(' '), canonical);
        single.set(lightStem(words.join('')), canonical);
      }
    }
  }
  return { SYNONYMS: single, PHRASE_SYNONYMS: phrases };
})();

const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren as at be because been before being below between
both but by can cannot could couldn did didn do does doesn doing don down during each few for from further had hadn
has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself just let
me more most mustn my myself no nor not now of off on once only or other ought our ours ourselves out over own same
shan she should shouldn so some such than that the their theirs them themselves then there these they this those
through to too under until up very was wasn we were weren what when where which while who whom why will with won
would wouldn you your yours yourself yourselves s t d ll m re ve y also get got please thanks thank hi hello tell
know want wondering anyone something anything yes`
    .split(/\s+/)
    .filter(Boolean),
);

/** MurmurHash3 (x86, 32-bit) of the UTF-16 code units: fast, well mixed, stable across runs. */
const murmur3 = (key: string, seed = 0x9747b28c): number => {
  let h = seed >>> 0;
  const len = key.length;
  let i = 0;
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  for (; i + 1 < len; i += 2) {
    let k = (key.charCodeAt(i) & 0xffff) | ((key.charCodeAt(i + 1) & 0xffff) << 16);
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < len) {
    let k = key.charCodeAt(i) & 0xffff;
    k = Math.imul(k, c1);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, c2);
    h ^= k;
  }
  h ^= len * 2;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};
