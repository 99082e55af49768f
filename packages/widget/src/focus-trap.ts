const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/** Keeps Tab inside the open panel (the panel is a modal dialog). */
export const trapFocus = (event: KeyboardEvent, container: HTMLElement) => {
  if (event.key !== 'Tab') return;
  const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (item) => item.offsetParent !== null || item === document.activeElement,
  );
  if (items.length === 0) return;
  const root = container.getRootNode() as ShadowRoot;
  const active = root.activeElement;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
};
