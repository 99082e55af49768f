import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders the usual markdown', () => {
    const html = renderMarkdown('**Opening hours**\n\n- Mon: 9-5\n- `Sat`: closed\n\n[Help](https://shop.example/help)');
    expect(html).toContain('<strong>Opening hours</strong>');
    expect(html).toContain('<li>Mon: 9-5</li>');
    expect(html).toContain('<code>Sat</code>');
    expect(html).toContain('<a href="https://shop.example/help" target="_blank" rel="noopener noreferrer nofollow">Help</a>');
  });

  it('shows raw HTML from model text as text', () => {
    const html = renderMarkdown('Hi <img src=x onerror="alert(1)"> and <script>alert(2)</script>\n\n<div onclick="x()">block</div>');
    expect(html).not.toMatch(/<img|<script|<div/i);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('&lt;script&gt;');
  });

  it('drops links and images whose address is not http(s) or mailto', () => {
    const html = renderMarkdown('[click](javascript:alert(1)) ![pic](data:image/png;base64,xx) ![logo](https://img.example/a.png)');
    expect(html).not.toMatch(/javascript:|data:image|<img/i);
    expect(html).toContain('click');
    expect(html).toContain('<a href="https://img.example/a.png"');
  });

  it('escapes quotes in link addresses', () => {
    const html = renderMarkdown('[x](https://a.example/"onmouseover="alert(1))');
    expect(html).not.toContain('"onmouseover="');
  });
});
