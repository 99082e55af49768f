import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import { useProject } from '../lib/project-context';
import type { CreatedIdentitySecret, ProjectRecord } from '../lib/types';
import { Button, Card, ConfirmDialog, CopyButton, ErrorNotice, formatDate, Notice, useSubmit } from './ui';

// From docs/widget.md: the user token a customer's backend signs with the secret.
const SIGNING_EXAMPLE = `// Node (npm install jose): the token of the signed-in user, for data-user-token.
import { SignJWT } from 'jose';

const secret = new TextEncoder().encode(process.env.PALAVER_IDENTITY_SECRET); // idv_…

export const palaverUserToken = (user) =>
  new SignJWT({ name: user.name, email: user.email }) // optional: name, email, avatarUrl
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(user.id)) // required: your user id, 1 to 100 characters
    .setIssuedAt()
    .setExpirationTime('1h') // required, at most 24 h ahead
    .sign(secret);`;

/**
 * The project's identity secret (created or rotated here, shown once) and whether the widget
 * requires a verified visitor. The secret lives only in this component's state: a reload forgets it.
 */
export const IdentitySecret = () => {
  const { project, setProject } = useProject();
  const { required, secretCreatedAt } = project.identityVerification;
  const [created, setCreated] = useState<CreatedIdentitySecret | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const rotate = async () => {
    const secret = await api<CreatedIdentitySecret>(`/projects/${project.id}/identity-secret`, { method: 'POST' });
    setCreated(secret);
    setProject({ ...project, identityVerification: { required, secretCreatedAt: secret.createdAt } });
  };
  const create = useSubmit(rotate);
  // The switch shows the asked-for state while the PATCH runs, and goes back if it fails.
  const [asked, setAsked] = useState<boolean | null>(null);
  const toggle = useSubmit(async (next: boolean) => {
    setAsked(next);
    try {
      const body = { identityVerification: { required: next } };
      setProject(await api<ProjectRecord>(`/projects/${project.id}`, { method: 'PATCH', body }));
    } finally {
      setAsked(null);
    }
  });
  const on = asked ?? required;
  const hasSecret = secretCreatedAt !== null;

  return (
    <Card title="Identity verification">
      <p class="muted">
        Your backend signs a user token with this secret so the widget knows who the visitor is: one history on every device, and no
        impersonation. The page passes it as <code>data-user-token</code> or <code>Palaver.identify(token)</code>; see “Identified visitors”
        in <code>docs/widget.md</code> and the token's claims in <code>docs/api.md</code>.
      </p>
      <p>
        {hasSecret ? <>Secret created {formatDate(secretCreatedAt)}.</> : <>No identity secret yet.</>}{' '}
        <Button
          variant="secondary"
          class="button-small"
          busy={create.busy}
          onClick={() => (hasSecret ? setConfirmRotate(true) : void create.run())}
        >
          {hasSecret ? 'Rotate secret' : 'Create secret'}
        </Button>
      </p>
      <ErrorNotice error={create.error} />
      {created ? (
        <div class="secret-once" data-testid="identity-secret">
          <Notice tone="warning">
            Copy this secret now and keep it on your server: it will not be shown again.
            {created.previousSecretValidUntil
              ? ` The previous secret keeps verifying tokens until ${formatDate(created.previousSecretValidUntil)}.`
              : ''}
          </Notice>
          <pre class="snippet">
            <code>{created.secret}</code>
          </pre>
          <CopyButton text={created.secret} label="Copy secret" />
        </div>
      ) : null}
      <label class="toggle identity-required">
        <input
          type="checkbox"
          role="switch"
          aria-checked={on}
          name="identityRequired"
          checked={on}
          disabled={(!hasSecret && !required) || toggle.busy}
          aria-describedby="identity-required-hint"
          onChange={(e) => void toggle.run(e.currentTarget.checked)}
        />
        Require verified visitors
      </label>
      <p id="identity-required-hint" class="field-hint">
        {hasSecret
          ? 'On: a page without a valid user token cannot start a chat; only your signed-in users can.'
          : 'Create a secret first: with none, no visitor could be verified.'}
      </p>
      <ErrorNotice error={toggle.error} />
      <details class="problems">
        <summary>Signing a user token (Node)</summary>
        <pre class="snippet">
          <code>{SIGNING_EXAMPLE}</code>
        </pre>
      </details>
      <ConfirmDialog
        open={confirmRotate}
        title="Rotate the identity secret?"
        body={<p>A new secret is made. Tokens signed with the current one keep working for a while, then stop: update your backend.</p>}
        confirmLabel="Rotate"
        onConfirm={rotate}
        onClose={() => setConfirmRotate(false)}
      />
    </Card>
  );
};
