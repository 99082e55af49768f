/** @jsxImportSource preact */
import { useEffect, useRef, useState } from 'preact/hooks';

const REASONS = ['My question was answered', 'I did not get the help I needed', 'Other'];

/** Asks why the visitor ends the conversation; the reason goes to `close` as `closeReason`. */
export const CloseDialog = ({ onConfirm, onCancel }: { onConfirm: (reason: string) => void; onCancel: () => void }) => {
  const [reason, setReason] = useState(REASONS[0]!);
  const [other, setOther] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div class="palaver-dialog" role="alertdialog" aria-modal="true" aria-labelledby="palaver-close-title">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(reason === 'Other' ? other.trim() || 'Other' : reason);
        }}
      >
        <h3 id="palaver-close-title">End this conversation?</h3>
        {REASONS.map((option, index) => (
          <label key={option}>
            <input
              type="radio"
              name="palaver-reason"
              value={option}
              checked={reason === option}
              ref={index === 0 ? first : undefined}
              onChange={() => setReason(option)}
            />
            {option}
          </label>
        ))}
        {reason === 'Other' && (
          <textarea
            aria-label="Reason"
            rows={2}
            maxLength={1000}
            value={other}
            onInput={(event) => setOther((event.target as HTMLTextAreaElement).value)}
          />
        )}
        <div class="palaver-dialog-actions">
          <button type="button" class="palaver-button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" class="palaver-button palaver-button--primary">
            End conversation
          </button>
        </div>
      </form>
    </div>
  );
};
