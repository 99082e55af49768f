import type { ButtonHTMLAttributes, ComponentChildren, FormHTMLAttributes } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, errorMessage } from '../lib/api';
import type { AsyncState } from '../lib/use-async';

export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <div class="loading" role="status" aria-live="polite">
    <span class="spinner" aria-hidden="true" />
    {label}
  </div>
);

export const Empty = ({ title, children }: { title: string; children?: ComponentChildren }) => (
  <div class="empty">
    <p class="empty-title">{title}</p>
    {children ? <div class="empty-body">{children}</div> : null}
  </div>
);

/** What a loaded thing shows until it is there: a spinner on the first load, the error with a retry. */
export const LoadStatus = ({ state }: { state: Pick<AsyncState<unknown>, 'data' | 'error' | 'loading' | 'reload'> }) => (
  <>
    {state.loading && !state.data ? <Loading /> : null}
    <ErrorNotice error={state.error} onRetry={state.reload} />
  </>
);

/** What a list shows besides its rows: its `LoadStatus`, then `empty` when it has none. */
export const ListStatus = ({
  state,
  empty,
}: {
  state: Pick<AsyncState<{ data: readonly unknown[] }>, 'data' | 'error' | 'loading' | 'reload'>;
  empty: ComponentChildren;
}) => (
  <>
    <LoadStatus state={state} />
    {state.data?.data.length === 0 ? empty : null}
  </>
);

/** An API error as its envelope's message (and code), announced to screen readers. */
export const ErrorNotice = ({ error, onRetry }: { error: unknown; onRetry?: () => void }) => {
  if (!error) return null;
  const code = (error as { code?: string }).code;
  return (
    <div class="notice notice-error" role="alert">
      <span>
        {errorMessage(error)}
        {code && code !== 'HTTP_ERROR' ? <code class="error-code">{code}</code> : null}
      </span>
      {onRetry ? (
        <button type="button" class="button button-small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  );
};

export const Notice = ({ children, tone = 'info' }: { children: ComponentChildren; tone?: 'info' | 'success' | 'warning' }) => (
  <div class={`notice notice-${tone}`} role="status">
    {children}
  </div>
);

export const PageHeader = ({ title, description, actions }: { title: string; description?: string; actions?: ComponentChildren }) => (
  <header class="page-header">
    <div>
      <h1>{title}</h1>
      {description ? <p class="muted">{description}</p> : null}
    </div>
    {actions ? <div class="page-actions">{actions}</div> : null}
  </header>
);

export const Card = ({ title, children, actions }: { title?: string; children: ComponentChildren; actions?: ComponentChildren }) => (
  <section class="card">
    {title || actions ? (
      <div class="card-head">
        {title ? <h2>{title}</h2> : <span />}
        {actions}
      </div>
    ) : null}
    {children}
  </section>
);

type FieldProps = { label: string; hint?: string; children: ComponentChildren };
/** A labelled control; the hint sits outside the label so it is not part of the control's name. */
export const Field = ({ label, hint, children }: FieldProps) => (
  <div class="field">
    {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is the children, wrapped by the label */}
    <label class="field-control">
      <span class="field-label">{label}</span>
      {children}
    </label>
    {hint ? <span class="field-hint">{hint}</span> : null}
  </div>
);

export const Button = ({
  variant = 'primary',
  busy = false,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: 'primary' | 'secondary' | 'danger' | 'ghost'; busy?: boolean }) => (
  <button
    type="button"
    {...props}
    class={`button button-${variant} ${props.class ?? ''}`}
    disabled={Boolean(props.disabled) || busy}
    aria-busy={busy}
  >
    {busy ? <span class="spinner spinner-small" aria-hidden="true" /> : null}
    {children}
  </button>
);

/** Copies `text`, then says so for two seconds. */
export const CopyButton = ({ text, label = 'Copy', ariaLabel }: { text: string; label?: string; ariaLabel?: string }) => {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard refused (insecure context): select-and-copy fallback.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Button
      variant="secondary"
      class="button-small"
      onClick={copy}
      aria-live="polite"
      aria-label={copied || !ariaLabel ? undefined : ariaLabel}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
};

/** A modal on the native <dialog>: focus stays inside, Escape closes it. */
export const Dialog = ({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class="dialog" aria-label={title} onClose={onClose} onCancel={onClose}>
      {open ? (
        <div class="dialog-body">
          <h2>{title}</h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
};

/** Asks before a destructive action; the confirm button shows the API's error if the action fails. */
export const ConfirmDialog = ({
  open,
  title,
  body,
  confirmLabel,
  confirmDisabled = false,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  body: ComponentChildren;
  confirmLabel: string;
  /** Until the body's own check passes (a name typed to confirm). */
  confirmDisabled?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (open) setError(null);
  }, [open]);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} title={title} onClose={onClose}>
      <div class="dialog-text">{body}</div>
      <ErrorNotice error={error} />
      <div class="dialog-actions">
        <Button variant="secondary" onClick={onClose} autoFocus>
          Cancel
        </Button>
        <Button variant="danger" busy={busy} disabled={confirmDisabled} onClick={confirm}>
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
};

/** Asks before deleting `item` (open while it is set), then sends DELETE to its `path` and calls `onDeleted`. */
export const DeleteDialog = <T extends { id: string }>({
  item,
  path,
  onDeleted,
  ...dialog
}: {
  item: T | null;
  title: string;
  body: ComponentChildren;
  confirmLabel: string;
  path: (item: T) => string;
  onDeleted: () => void;
  onClose: () => void;
}) => (
  <ConfirmDialog
    {...dialog}
    open={item !== null}
    onConfirm={async () => {
      await api(path(item!), { method: 'DELETE' });
      onDeleted();
    }}
  />
);

export const Pager = ({
  total,
  limit,
  offset,
  onChange,
}: {
  total: number;
  limit: number;
  offset: number;
  onChange: (offset: number) => void;
}) => {
  if (total <= limit) return null;
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.ceil(total / limit);
  return (
    <nav class="pager" aria-label="Pages">
      <Button variant="secondary" class="button-small" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        Previous
      </Button>
      <span class="muted">
        Page {page} of {pages} · {total} in all
      </span>
      <Button variant="secondary" class="button-small" disabled={offset + limit >= total} onClick={() => onChange(offset + limit)}>
        Next
      </Button>
    </nav>
  );
};

export const formatDate = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** A form whose submit runs `onSubmit` (a `useSubmit`'s `run`) instead of loading a page. */
export const Form = ({ onSubmit, ...props }: Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit'> & { onSubmit: () => Promise<void> }) => (
  <form
    {...props}
    onSubmit={(event) => {
      event.preventDefault();
      void onSubmit();
    }}
  />
);

/** A form's error, then its submit button, after a Cancel button when it sits in a dialog (`onCancel`). */
export const FormActions = ({
  submit,
  label,
  onCancel,
  disabled,
}: {
  submit: { busy: boolean; error: unknown };
  label: ComponentChildren;
  onCancel?: () => void;
  disabled?: boolean;
}) => (
  <>
    <ErrorNotice error={submit.error} />
    <div class={onCancel ? 'dialog-actions' : undefined}>
      {onCancel ? (
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      ) : null}
      <Button type="submit" busy={submit.busy} disabled={disabled}>
        {label}
      </Button>
    </div>
  </>
);

/** Runs a submit handler with a busy flag and the API's error message. */
export const useSubmit = <A extends unknown[]>(action: (...args: A) => Promise<void>) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (...args: A) => {
    setBusy(true);
    setError(null);
    try {
      await action(...args);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
};
