import { renderMarkdown } from '@palaver/widget/markdown';

/**
 * Assistant, agent and note text rendered as the widget renders it: the widget's markdown, whose
 * output escapes raw HTML and keeps only http(s) and mailto links.
 */
export const MarkdownText = ({ text }: { text: string }) => (
  <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />
);
