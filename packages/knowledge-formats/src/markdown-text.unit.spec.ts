import { describe, expect, it } from 'vitest';
import { markdownTitle, stripFrontMatter } from './markdown-text';

describe('markdownTitle', () => {
  it('takes the first ATX heading of any level, without closing hashes or inline markup', () => {
    expect(markdownTitle('intro line\n### Using `palaver` with **[Next.js](https://nextjs.org)** ##\n# Later')).toBe(
      'Using palaver with Next.js',
    );
  });

  it('reads setext headings and skips fenced code', () => {
    expect(markdownTitle('~~~sh\n# comment in code\n~~~\nInstall\n-------\n')).toBe('Install');
    expect(markdownTitle('```\n# a\n```\n\n## Real one')).toBe('Real one');
  });

  it('answers null when there is no heading', () => {
    expect(markdownTitle('#hashtag is not a heading\nplain text')).toBeNull();
    expect(markdownTitle('')).toBeNull();
  });
});

describe('stripFrontMatter', () => {
  it('removes YAML front matter and reads its title', () => {
    expect(stripFrontMatter("---\nid: x\ntitle: 'Quoted title'\n---\nBody")).toEqual({ frontTitle: 'Quoted title', body: 'Body' });
  });

  it('leaves text without front matter alone', () => {
    expect(stripFrontMatter('# Title\n---\nmore')).toEqual({ frontTitle: null, body: '# Title\n---\nmore' });
    expect(stripFrontMatter('---\ntags: [a]\n---\nBody')).toEqual({ frontTitle: null, body: 'Body' });
  });
});
