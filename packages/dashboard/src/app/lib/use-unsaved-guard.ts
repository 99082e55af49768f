import { useEffect } from 'preact/hooks';

/** A link click the router would turn into an in-app navigation (same origin, same tab, plain click). */
const inAppLinkOf = (event: MouseEvent): HTMLAnchorElement | null => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
  if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const to = new URL(link.href, location.href);
  if (to.origin !== location.origin || (to.pathname === location.pathname && to.search === location.search)) return null;
  return link;
};

/**
 * While `dirty`, asks before unsaved edits are lost: the browser's own question when the tab is
 * closed or reloaded, a confirmation before an in-app link is followed.
 */
export const useUnsavedGuard = (dirty: boolean, message = 'You have unsaved changes. Leave this page and lose them?') => {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium shows the question only when returnValue is set.
      event.returnValue = '';
    };
    // Capture on the document runs before the router's click listener on the window.
    const onClick = (event: MouseEvent) => {
      if (!inAppLinkOf(event) || window.confirm(message)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, message]);
};
