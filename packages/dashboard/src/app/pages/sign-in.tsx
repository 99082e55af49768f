import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { TextField, useFields } from '../components/fields';
import { Button, ErrorNotice, Form, useSubmit } from '../components/ui';
import { api, authApi } from '../lib/api';
import type { DashboardAuth } from '../lib/auth';
import { saveToken } from '../lib/session';
import type { Me } from '../lib/types';

/** A sign-in page's one card: the brand, its heading, then its fields; submitting runs `onSubmit`. */
const SignInCard = ({ title, onSubmit, children }: { title: string; onSubmit: () => Promise<void>; children: ComponentChildren }) => (
  <main id="main" class="sign-in">
    <Form class="card sign-in-card" onSubmit={onSubmit}>
      <p class="brand">
        <span class="brand-mark" aria-hidden="true">
          ◆
        </span>
        Palaver
      </p>
      <h1>{title}</h1>
      {children}
    </Form>
  </main>
);

/** Email and password (a session cookie), or the admin token kept for this tab (bootstrap and break-glass). */
export const SignIn = ({ onSignedIn }: { onSignedIn: (auth: DashboardAuth) => void }) => {
  const [useToken, setUseToken] = useState(false);
  const { values, field } = useFields({ email: '', password: '', token: '' });
  const { email, password, token } = values;
  const [sso, setSso] = useState(false);
  useEffect(() => {
    authApi<{ enabled: boolean }>('/sso').then(
      (answer) => setSso(answer.enabled),
      () => setSso(false),
    );
  }, []);
  const signIn = useSubmit(async () => {
    await authApi('/login', { body: { email: email.trim(), password } });
    onSignedIn({ kind: 'user', me: await authApi<Me>('/me') });
  });
  const tokenSignIn = useSubmit(async () => {
    await api('/projects', { token: token.trim() });
    saveToken(token.trim());
    onSignedIn({ kind: 'token' });
  });
  return useToken ? (
    <SignInCard title="Sign in with the admin token" onSubmit={tokenSignIn.run}>
      <p class="muted">
        The admin token (<code>ADMIN_TOKEN</code>, or the one printed on first start and saved in <code>DATA_DIR/admin-token</code>) opens
        everything: use it to set up the first owner, or when nobody else can sign in. It is kept for this tab only.
      </p>
      <TextField label="Admin token" type="password" autoComplete="current-password" required {...field('token')} />
      <ErrorNotice error={tokenSignIn.error} />
      <Button type="submit" busy={tokenSignIn.busy} disabled={!token.trim()}>
        Sign in
      </Button>
      <button type="button" class="button button-ghost" onClick={() => setUseToken(false)}>
        Use email and password instead
      </button>
    </SignInCard>
  ) : (
    <SignInCard title="Sign in to the dashboard" onSubmit={signIn.run}>
      <TextField label="Email" type="email" autoComplete="username" required {...field('email')} />
      <TextField label="Password" type="password" autoComplete="current-password" required {...field('password')} />
      <ErrorNotice error={signIn.error} />
      <Button type="submit" busy={signIn.busy} disabled={!email.trim() || !password}>
        Sign in
      </Button>
      {sso ? (
        <a class="button button-secondary" href="/auth/v1/sso/start">
          Sign in with SSO
        </a>
      ) : null}
      <button type="button" class="button button-ghost" onClick={() => setUseToken(true)}>
        Use the admin token
      </button>
    </SignInCard>
  );
};

/** `/dashboard/accept-invite?token=…`: the invited person chooses a password and is signed in. */
export const AcceptInvite = ({ onSignedIn }: { onSignedIn: (auth: DashboardAuth) => void }) => {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const accept = useSubmit(async () => {
    if (password !== repeat) throw new Error('The two passwords differ.');
    await authApi('/accept-invite', { body: { token, password } });
    history.replaceState(null, '', '/dashboard/');
    onSignedIn({ kind: 'user', me: await authApi<Me>('/me') });
  });
  return (
    <SignInCard title="Accept your invitation" onSubmit={accept.run}>
      <p class="muted">Choose a password of at least 12 characters. Common passwords are refused.</p>
      <TextField
        label="Password"
        type="password"
        name="new-password"
        autoComplete="new-password"
        minLength={12}
        required
        value={password}
        onValue={setPassword}
      />
      <TextField
        label="Password again"
        type="password"
        name="repeat-password"
        autoComplete="new-password"
        required
        value={repeat}
        onValue={setRepeat}
      />
      <ErrorNotice error={accept.error} />
      <Button type="submit" busy={accept.busy} disabled={!token || password.length < 12}>
        Set password and sign in
      </Button>
    </SignInCard>
  );
};
