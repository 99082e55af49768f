const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
const ATX_HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/** Heading text without the inline markup that would read oddly in a title. */
const plainInline = (text: string): string =>
  text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .trim();

const unquote = (value: string): string => {
  const v = value.trim();
  return (v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")) ? v.slice(1, -1).trim() : v;
};

/** Splits off YAML front matter (`---` ... `---` at the very start) and reads its `title:`, if any. */
export const stripFrontMatter = (text: string): { frontTitle: string | null; body: string } => {
  const match = FRONT_MATTER.exec(text.replace(/^\uFEFF/, ''));
  if (!match) return { frontTitle: null, body: text };
  const titleLine = (match[1] ?? '').split(/\r?\n/).find((line) => /^title:\s*\S/.test(line));
  const frontTitle = titleLine ? unquote(titleLine.slice('title:'.length)) : '';
  return { frontTitle: frontTitle || null, body: text.replace(/^\uFEFF/, '').slice(match[0].length) };
};

/** The text of the first heading (ATX `# x` or setext `x` over `===`/`---`), outside code fences. */
export const markdownTitle = (markdown: string): string | null => {
  const lines = markdown.split(/\r?\n/);
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1] ?? null;
      else if (fence === fenceMatch[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = ATX_HEADING.exec(line);
    if (atx?.[1]) {
      const title = plainInline(atx[1]);
      if (title) return title;
    }
    const next = lines[i + 1];
    if (line.trim() && next !== undefined && SETEXT_UNDERLINE.test(next) && !/^\s{4}/.test(line)) {
      const title = plainInline(line);
      if (title) return title;
    }
  }
  return null;
};
