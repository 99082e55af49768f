import { useState } from 'preact/hooks';

/**
 * A form's submit that runs once at a time: the page does not navigate, nothing happens while the
 * last one is still going or while `ready` is false, and `busy` is true in between (for the
 * submit button).
 */
export const useBusySubmit = (ready: boolean, send: () => Promise<void>) => {
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    if (busy || !ready) return;
    setBusy(true);
    try {
      await send();
    } finally {
      setBusy(false);
    }
  };
  return { busy, onSubmit };
};
