/**
 * Splits a markdown (or plain text) document into retrievable chunks. Sections follow ATX
 * headings (`#` to `######`, outside fenced code); inside a section, paragraphs are packed
 * greedily up to `maxChars`. A paragraph too long for one chunk is split at sentence ends, then
 * between words, and a single overlong word is cut. Consecutive chunks of one section share
 * up to `overlapChars` of text (cut at a word boundary) so that a sentence on a boundary is
 * seen whole by one of them. Every chunk keeps its heading path.
 */
export interface Chunk {
  index: number;
  /** The enclosing headings, outermost first. */
  headings: string[];
  text: string;
}

export interface ChunkOptions {
  maxChars: number;
  overlapChars: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { maxChars: 1000, overlapChars: 150 };

interface Section {
  headings: string[];
  paragraphs: string[];
}

interface Piece {
  text: string;
  /** How it joins the text before it: a new paragraph, or the rest of a split one. */
  joiner: '\n\n' | ' ';
}

export const chunkDocument = (content: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): Chunk[] => {
  const { maxChars, overlapChars } = options;
  if (maxChars < 20 || overlapChars < 0 || overlapChars >= maxChars) throw new Error('invalid chunk options');
  const { sections, headingTitles } = parseSections(content);
  const chunks: Chunk[] = [];
  for (const section of sections) {
    for (const text of packSection(section.paragraphs, maxChars, overlapChars)) {
      chunks.push({ index: chunks.length, headings: section.headings, text });
    }
  }
  // A document of headings alone is still findable by them.
  if (chunks.length === 0 && headingTitles.length > 0) {
    for (const text of packSection([headingTitles.join('\n')], maxChars, overlapChars)) {
      chunks.push({ index: chunks.length, headings: [], text });
    }
  }
  return chunks;
};

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const parseSections = (content: string): { sections: Section[]; headingTitles: string[] } => {
  const sections: Section[] = [];
  const headingTitles: string[] = [];
  const stack: Array<{ level: number; title: string }> = [];
  let current: Section = { headings: [], paragraphs: [] };
  let paragraph: string[] = [];
  let fence: string | null = null;

  const endParagraph = (): void => {
    const text = paragraph.join('\n').trim();
    if (text.length > 0) current.paragraphs.push(text);
    paragraph = [];
  };

  for (const line of content.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      paragraph.push(line);
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) {
        fence = null;
        endParagraph();
      }
      continue;
    }
    if (fenceMatch) {
      endParagraph();
      fence = fenceMatch[1]!;
      paragraph.push(line);
      continue;
    }
    const heading = ATX_HEADING.exec(line);
    if (heading) {
      endParagraph();
      sections.push(current);
      const level = heading[1]!.length;
      const title = (heading[2] ?? '').trim();
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      if (title.length > 0) {
        stack.push({ level, title });
        headingTitles.push(title);
      }
      current = { headings: stack.map((h) => h.title), paragraphs: [] };
      continue;
    }
    if (line.trim().length === 0) endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  sections.push(current);
  return { sections: sections.filter((s) => s.paragraphs.length > 0), headingTitles };
};

const packSection = (paragraphs: string[], maxChars: number, overlapChars: number): string[] => {
  const pieces: Piece[] = paragraphs.flatMap((p) =>
    splitToFit(p, maxChars, overlapChars).map((text, i): Piece => ({ text, joiner: i === 0 ? '\n\n' : ' ' })),
  );
  const out: string[] = [];
  let current = '';
  let hasNewText = false;
  for (const piece of pieces) {
    const candidate = current.length > 0 ? `${current}${piece.joiner}${piece.text}` : piece.text;
    if (candidate.length <= maxChars) {
      current = candidate;
      hasNewText = true;
      continue;
    }
    if (hasNewText) out.push(current);
    const overlap = fitOverlap(tail(current, overlapChars), piece, maxChars);
    current = overlap.length > 0 ? `${overlap}${piece.joiner}${piece.text}` : piece.text;
    hasNewText = true;
  }
  if (hasNewText && current.length > 0) out.push(current);
  return out;
};

/**
 * A paragraph that fits stays whole. A longer one becomes units to pack: its sentences, a
 * sentence too long becomes groups of words, a word too long is cut. Units leave room for the
 * overlap in front of them.
 */
const splitToFit = (paragraph: string, maxChars: number, overlapChars: number): string[] => {
  if (paragraph.length <= maxChars) return [paragraph];
  const unitMax = Math.max(1, maxChars - overlapChars - 1);
  const units: string[] = [];
  for (const raw of paragraph.match(/[^.!?]+(?:[.!?]+|$)/g) ?? [paragraph]) {
    const sentence = raw.trim();
    if (sentence.length === 0) continue;
    if (sentence.length <= unitMax) {
      units.push(sentence);
      continue;
    }
    let group = '';
    for (const word of sentence.split(/\s+/)) {
      const parts: string[] = [];
      for (let i = 0; i < word.length; i += unitMax) parts.push(word.slice(i, i + unitMax));
      for (const part of parts) {
        if (group.length > 0 && group.length + 1 + part.length <= unitMax) group = `${group} ${part}`;
        else {
          if (group.length > 0) units.push(group);
          group = part;
        }
      }
    }
    if (group.length > 0) units.push(group);
  }
  return units;
};

/** The last `limit` characters (at most half the text), starting at a word boundary. */
const tail = (text: string, limit: number): string => {
  const size = Math.min(limit, Math.floor(text.length / 2));
  if (size <= 0) return '';
  const start = text.length - size;
  let slice = text.slice(start);
  if (start > 0 && !/\s/.test(text.charAt(start - 1))) {
    const space = slice.search(/\s/);
    slice = space < 0 ? '' : slice.slice(space);
  }
  return slice.trim();
};

/** Drops leading words of the overlap until it fits in front of the piece. */
const fitOverlap = (overlap: string, piece: Piece, maxChars: number): string => {
  let o = overlap;
  while (o.length > 0 && o.length + piece.joiner.length + piece.text.length > maxChars) {
    const space = o.search(/\s/);
    o = space < 0 ? '' : o.slice(space).trim();
  }
  return o;
};
