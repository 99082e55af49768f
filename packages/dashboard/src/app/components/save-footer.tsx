import { Button, ErrorNotice, Notice } from './ui';

/** The bar under a long settings form: its error, or `savedText` once saved, and its submit button. */
export const SaveFooter = ({
  submit,
  saved,
  savedText,
  label,
}: {
  submit: { busy: boolean; error: unknown };
  saved: boolean;
  savedText: string;
  label: string;
}) => (
  <div class="form-footer">
    <ErrorNotice error={submit.error} />
    {saved && !submit.error ? <Notice tone="success">{savedText}</Notice> : null}
    <Button type="submit" busy={submit.busy}>
      {label}
    </Button>
  </div>
);
