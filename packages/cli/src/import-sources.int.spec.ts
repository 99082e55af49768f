import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ImportItem } from '@palaver/knowledge-formats';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFolder, readNdjson, readSources } from './import-sources';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'palaver-cli-sources-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const files = async (root: string, contents: Record<string, string>) => {
  for (const [path, text] of Object.entries(contents)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
};

const documents = (items: ImportItem[]) =>
  items.map((item) => {
    if (item.kind !== 'document') throw new Error(`expected a document, got ${item.kind}`);
    return item.body;
  });

describe('readFolder', () => {
  it('turns every supported file below the folder into a document with title, url and path', async () => {
    const docs = join(dir, 'docs');
    await files(docs, {
      'intro.md': 'Some words before.\n\n## Getting started\n\nInstall the widget.\n',
      'guides/setup guide.markdown': '```\n# not a heading\n```\n\nSetup Steps\n===========\n\nRun the installer.',
      'guides/deep/faq.txt': '# looks like a heading but this is text\nAsk us anything.',
      'pages/pricing.html':
        '<html><head><title>Pricing | Site</title><script>var tracking = 1;</script></head>' +
        '<body><nav>Home Docs</nav><h1>Plans &amp; pricing</h1><p>The <a href="/pro">Pro plan</a> costs 10 EUR.</p></body></html>',
      'pages/about.html': '<html><head><title>About us</title></head><body><p>We make widgets.</p></body></html>',
      'front.md': '---\ntitle: "From front matter"\nsidebar: 2\n---\n# Heading below\n\nBody text.',
    });
    const sources = await readFolder(docs, { baseUrl: 'https://site.example/docs/' });

    expect(sources.invalid).toEqual([]);
    expect(sources.skipped).toEqual([]);
    const byPath = Object.fromEntries(documents(sources.items).map((d) => [d.path, d]));
    expect(Object.keys(byPath).sort()).toEqual([
      'front.md',
      'guides/deep/faq.txt',
      'guides/setup guide.markdown',
      'intro.md',
      'pages/about.html',
      'pages/pricing.html',
    ]);
    expect(byPath['intro.md']).toEqual({
      title: 'Getting started',
      url: 'https://site.example/docs/intro',
      path: 'intro.md',
      content: 'Some words before.\n\n## Getting started\n\nInstall the widget.',
    });
    expect(byPath['guides/setup guide.markdown']).toMatchObject({
      title: 'Setup Steps',
      url: 'https://site.example/docs/guides/setup%20guide',
    });
    expect(byPath['guides/deep/faq.txt']).toMatchObject({
      title: 'faq',
      url: 'https://site.example/docs/guides/deep/faq',
      content: '# looks like a heading but this is text\nAsk us anything.',
    });
    expect(byPath['front.md']).toMatchObject({ title: 'From front matter', content: '# Heading below\n\nBody text.' });

    const pricing = byPath['pages/pricing.html'];
    expect(pricing?.title).toBe('Plans & pricing');
    expect(pricing?.url).toBe('https://site.example/docs/pages/pricing');
    expect(pricing?.content).toContain('The Pro plan costs 10 EUR.');
    for (const dropped of ['<', 'tracking', 'Home Docs', '/pro', 'Pricing | Site']) expect(pricing?.content).not.toContain(dropped);
    expect(byPath['pages/about.html']).toMatchObject({ title: 'About us', content: 'We make widgets.' });
  });

  it('skips and reports empty files, ignores other types and hidden folders', async () => {
    await files(dir, {
      'empty.md': '',
      'blank.txt': '  \n\n\t\n',
      'only-front-matter.md': '---\ntitle: Nothing else\n---\n',
      'empty.html': '<html><head><title>Nothing</title></head><body>  </body></html>',
      'kept.md': 'Kept content.',
      'logo.png': 'not really a png',
      'data.json': '{}',
      '.git/HEAD.md': '# hidden',
      '.draft.md': '# hidden too',
    });
    const sources = await readFolder(dir, { baseUrl: 'https://site.example' });
    expect(documents(sources.items).map((d) => ({ path: d.path, title: d.title, url: d.url }))).toEqual([
      { path: 'kept.md', title: 'kept', url: 'https://site.example/kept' },
    ]);
    expect(sources.skipped).toEqual([
      { source: 'blank.txt', reason: 'empty file' },
      { source: 'empty.html', reason: 'empty file' },
      { source: 'empty.md', reason: 'empty file' },
      { source: 'only-front-matter.md', reason: 'empty file' },
    ]);
    expect(sources.ignoredFiles).toBe(2);
  });

  it('reports a file the contracts reject instead of sending it', async () => {
    await files(dir, { 'huge.txt': 'x'.repeat(2_000_001), 'ok.txt': 'fine' });
    const sources = await readFolder(dir, { baseUrl: 'https://site.example' });
    expect(sources.items.map((i) => i.source)).toEqual(['ok.txt']);
    expect(sources.invalid).toHaveLength(1);
    expect(sources.invalid[0]?.source).toBe('huge.txt');
    expect(sources.invalid[0]?.reason).toMatch(/^content: /);
  });

  it('requires a base URL for a folder', async () => {
    await files(dir, { 'a.md': 'text' });
    await expect(readSources(dir, {})).rejects.toThrow(/--base-url/);
  });
});

describe('readNdjson', () => {
  const write = async (lines: string[]) => {
    const file = join(dir, 'knowledge.ndjson');
    await writeFile(file, `${lines.join('\n')}\n`);
    return file;
  };

  it('reads documents (with product fields) and Q&A entries, ignoring blank lines', async () => {
    const product = {
      title: 'Aurora X2',
      url: 'https://shop.example/p/ax2',
      path: '/p/ax2',
      content: 'Headphones.',
      productId: 'AX2',
      price: 199,
      currency: 'EUR',
    };
    const file = await write([
      JSON.stringify({ title: 'Warranty', url: 'https://shop.example/warranty', content: 'Two years.' }),
      '',
      JSON.stringify({ question: 'Do you ship abroad?', answer: 'Yes, to every EU country.', createdBy: { name: 'Sam', image: null } }),
      JSON.stringify(product),
    ]);
    const sources = await readSources(file, {});
    expect(sources.invalid).toEqual([]);
    expect(sources.items).toEqual([
      {
        kind: 'document',
        source: 'knowledge.ndjson:1',
        body: { title: 'Warranty', url: 'https://shop.example/warranty', content: 'Two years.' },
      },
      {
        kind: 'qna',
        source: 'knowledge.ndjson:3',
        body: { question: 'Do you ship abroad?', answer: 'Yes, to every EU country.', createdBy: { name: 'Sam', image: null } },
      },
      {
        kind: 'document',
        source: 'knowledge.ndjson:4',
        body: product,
      },
    ]);
  });

  it('reports every invalid line with its line number and the failing field', async () => {
    const file = await write([
      JSON.stringify({ title: 'Good', url: 'https://shop.example/good', content: 'ok' }),
      '{"title": "Broken JSON",',
      JSON.stringify({ title: 'No URL', url: 'not a url', content: 'text' }),
      JSON.stringify({ question: 'Missing answer?' }),
      '[1, 2]',
      JSON.stringify({ title: '', url: 'https://shop.example/x', content: 'text', price: 'cheap' }),
    ]);
    const sources = await readNdjson(file);
    expect(sources.items.map((i) => i.source)).toEqual(['knowledge.ndjson:1']);
    expect(sources.invalid.map((p) => p.source)).toEqual([
      'knowledge.ndjson:2',
      'knowledge.ndjson:3',
      'knowledge.ndjson:4',
      'knowledge.ndjson:5',
      'knowledge.ndjson:6',
    ]);
    const reasons = sources.invalid.map((p) => p.reason);
    expect(reasons[0]).toMatch(/^not valid JSON/);
    expect(reasons[1]).toMatch(/^document: url: /);
    expect(reasons[2]).toMatch(/^Q&A entry: answer: /);
    expect(reasons[3]).toBe('expected a JSON object');
    expect(reasons[4]).toMatch(/^document: title: .*; price: /);
  });
});
