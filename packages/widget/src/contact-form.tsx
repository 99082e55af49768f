/** @jsxImportSource preact */
import type { InputHTMLAttributes } from 'preact';
import { useState } from 'preact/hooks';
import { useBusySubmit } from './busy-submit';

/** The form's two lines: an email to write back to, and a name if the visitor wants. */
const CONTACT_INPUTS = {
  email: { type: 'email', required: true, maxLength: 320, autocomplete: 'email', placeholder: 'you@example.com', label: 'Email' },
  name: { type: 'text', required: false, maxLength: 200, autocomplete: 'name', placeholder: 'Name (optional)', label: 'Name' },
} as const;

/** One line of the form: its value kept by the caller. */
const ContactInput = ({
  line: { label, ...input },
  value,
  onValue,
}: {
  line: (typeof CONTACT_INPUTS)[keyof typeof CONTACT_INPUTS];
  value: string;
  onValue: (value: string) => void;
}) => (
  // Preact types an input's attributes per literal `type`; these come from CONTACT_INPUTS.
  <input
    class="palaver-contact-input"
    {...(input as InputHTMLAttributes<HTMLInputElement>)}
    aria-label={label}
    value={value}
    onInput={(event) => onValue(event.currentTarget.value)}
  />
);

/**
 * Shown when the visitor asked for a person and nobody can answer now: an email (and a name) the
 * team can write back to. The visitor may ignore it and go on writing.
 */
export const ContactForm = ({ onSubmit }: { onSubmit: (email: string, name?: string) => Promise<boolean> }) => {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const { busy, onSubmit: submit } = useBusySubmit(email.trim() !== '', async () => {
    await onSubmit(email.trim(), name.trim() || undefined);
  });
  return (
    <form class="palaver-contact" aria-label="Leave your email" onSubmit={submit}>
      <p class="palaver-contact-text">Nobody from the team is available right now. Leave your email and we will get back to you.</p>
      <ContactInput line={CONTACT_INPUTS.email} value={email} onValue={setEmail} />
      <ContactInput line={CONTACT_INPUTS.name} value={name} onValue={setName} />
      <button type="submit" class="palaver-button palaver-button--primary" disabled={busy || !email.trim()}>
        Send my email
      </button>
    </form>
  );
};
