/** @jsxImportSource preact */
import { useState } from 'preact/hooks';

/**
 * Shown when the visitor asked for a person and nobody can answer now: an email (and a name) the
 * team can write back to. The visitor may ignore it and go on writing.
 */
export const ContactForm = ({ onSubmit }: { onSubmit: (email: string, name?: string) => Promise<boolean> }) => {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <form
      class="palaver-contact"
      aria-label="Leave your email"
      onSubmit={async (event) => {
        event.preventDefault();
        if (busy || !email.trim()) return;
        setBusy(true);
        await onSubmit(email.trim(), name.trim() || undefined);
        setBusy(false);
      }}
    >
      <p class="palaver-contact-text">Nobody from the team is available right now. Leave your email and we will get back to you.</p>
      <input
        class="palaver-contact-input"
        type="email"
        required
        maxLength={320}
        autocomplete="email"
        placeholder="you@example.com"
        aria-label="Email"
        value={email}
        onInput={(event) => setEmail((event.target as HTMLInputElement).value)}
      />
      <input
        class="palaver-contact-input"
        type="text"
        maxLength={200}
        autocomplete="name"
        placeholder="Name (optional)"
        aria-label="Name"
        value={name}
        onInput={(event) => setName((event.target as HTMLInputElement).value)}
      />
      <button type="submit" class="palaver-button palaver-button--primary" disabled={busy || !email.trim()}>
        Send my email
      </button>
    </form>
  );
};
