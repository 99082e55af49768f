import type { PageContext } from '@palaver/contracts';

const MAX_SELECTION = 2000;

/**
 * Page context for each message: the host page's url and title, and the text the visitor last
 * selected on the page (remembered, since focusing the widget's input clears the selection).
 */
export const trackPageContext = (host: Element): { read: () => PageContext; stop: () => void } => {
  let selection = '';
  const onSelection = () => {
    const current = document.getSelection();
    const text = current?.toString().trim() ?? '';
    if (text && current?.anchorNode && !host.contains(current.anchorNode)) selection = text.slice(0, MAX_SELECTION);
  };
  document.addEventListener('selectionchange', onSelection);
  return {
    read: () => {
      const context: PageContext = { url: location.href, title: document.title };
      if (selection) context.textSelection = selection;
      selection = '';
      return context;
    },
    stop: () => document.removeEventListener('selectionchange', onSelection),
  };
};
