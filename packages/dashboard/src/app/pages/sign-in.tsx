import { useState } from 'preact/hooks';
import { Button, ErrorNotice, Field, Form, useSubmit } from '../components/ui';
import { api } from '../lib/api';
import { saveToken } from '../lib/session';

/** Checks the admin token against the API before keeping it for this tab. */
export const SignIn = ({ onSignedIn }: { onSignedIn: () => void }) => {
  const [token, setToken] = useState('');
  const submit = useSubmit(async () => {
    await api('/projects', { token: token.trim() });
    saveToken(token.trim());
    onSignedIn();
  });
  return (
    <main id="main" class="sign-in">
      <Form class="card sign-in-card" onSubmit={submit.run}>
        <p class="brand">
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>
          Palaver
        </p>
        <h1>Sign in to the dashboard</h1>
        <p class="muted">
          Use the admin token (<code>ADMIN_TOKEN</code>, or the one printed on first start and saved in <code>DATA_DIR/admin-token</code>).
          It is kept for this tab only.
        </p>
        <Field label="Admin token">
          <input
            type="password"
            name="token"
            autoComplete="current-password"
            required
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </Field>
        <ErrorNotice error={submit.error} />
        <Button type="submit" busy={submit.busy} disabled={!token.trim()}>
          Sign in
        </Button>
      </Form>
    </main>
  );
};
