import type { ComponentChildren } from 'preact';
import { Button, CopyButton, Notice } from './ui';

/** A value to copy (a key, a secret, a link), its copy button, then `children` (such as a Done button). */
export const CopyableValue = ({
  value,
  testId,
  copyLabel,
  children,
}: {
  value: string;
  testId: string;
  copyLabel: string;
  children?: ComponentChildren;
}) => (
  <div class="key-row">
    <code class="key-value" data-testid={testId}>
      {value}
    </code>
    <CopyButton text={value} label={copyLabel} />
    {children}
  </div>
);

/** A key or secret just created, with what to do with it, until the owner clicks Done. */
export const CreatedSecretNotice = ({
  message,
  value,
  testId,
  copyLabel,
  onDone,
}: {
  message: string;
  value: string;
  testId: string;
  copyLabel: string;
  onDone: () => void;
}) => (
  <Notice tone="warning">
    <div class="created-key">
      <strong>{message}</strong>
      <CopyableValue value={value} testId={testId} copyLabel={copyLabel}>
        <Button variant="ghost" class="button-small" onClick={onDone}>
          Done
        </Button>
      </CopyableValue>
    </div>
  </Notice>
);
