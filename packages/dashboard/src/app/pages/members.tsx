import type { Role } from '@palaver/contracts/roles';
import { useState } from 'preact/hooks';
import { CopyableValue } from '../components/created-secret';
import { SelectField, TextField } from '../components/fields';
import { ACTIONS, ListTable } from '../components/list-table';
import { Button, Card, ConfirmDialog, Empty, ErrorNotice, Form, FormActions, Notice, PageHeader, useSubmit } from '../components/ui';
import { ApiError, api } from '../lib/api';
import { allows, useAuth } from '../lib/auth';
import { useProject } from '../lib/project-context';
import type { CreatedUser, Member, UserRecord } from '../lib/types';
import { useAsync } from '../lib/use-async';

const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner: everything, members included',
  admin: 'Admin: everything but members',
  agent: 'Agent: the inbox and conversations',
  analyst: 'Analyst: feedback, events and conversations, read only',
};
const ROLE_NAMES = Object.keys(ROLE_LABELS) as Role[];

/** The user with this email: created (with an invitation link) or, when it exists, found. */
const userFor = async (email: string, name: string): Promise<{ user: UserRecord; invitationUrl: string | null }> => {
  try {
    const created = await api<CreatedUser>('/users', { body: { email, name } });
    return { user: created, invitationUrl: created.invitation?.url ?? null };
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'CONFLICT')) throw err;
    const { data } = await api<{ data: UserRecord[] }>('/users');
    const user = data.find((u) => u.email === email.toLowerCase());
    if (!user) throw err;
    return { user, invitationUrl: null };
  }
};

export const MembersPage = () => {
  const { project } = useProject();
  const auth = useAuth();
  const manage = allows(auth, project.id, 'members.manage');
  const members = useAsync((signal) => api<{ data: Member[] }>(`/projects/${project.id}/members`, { signal }), [project.id]);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const [invited, setInvited] = useState<{ email: string; url: string | null } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  const invite = useSubmit(async () => {
    const { user, invitationUrl } = await userFor(email.trim(), name.trim());
    await api(`/projects/${project.id}/members/${user.id}`, { method: 'PUT', body: { role } });
    setInvited({ email: user.email, url: invitationUrl });
    setEmail('');
    setName('');
    members.reload();
  });
  const change = useSubmit(async (member: Member, next: Role) => {
    await api(`/projects/${project.id}/members/${member.userId}`, { method: 'PUT', body: { role: next } });
    members.reload();
  });
  const remove = async () => {
    if (!removing) return;
    await api(`/projects/${project.id}/members/${removing.userId}`, { method: 'DELETE' });
    members.reload();
  };

  return (
    <>
      <PageHeader title="Members" description="The people who work on this project, each with one role." />
      {manage ? (
        <Card title="Invite a colleague">
          <Form class="form-grid" onSubmit={invite.run}>
            <TextField label="Email" type="email" name="email" required value={email} onValue={setEmail} />
            <TextField label="Name" name="name" required value={name} onValue={setName} />
            <SelectField
              label="Role"
              name="role"
              options={ROLE_NAMES.map((r) => [r, ROLE_LABELS[r]] as const)}
              value={role}
              onValue={setRole}
            />
            <FormActions submit={invite} label="Invite" disabled={!email.trim() || !name.trim()} />
          </Form>
          {invited ? (
            <Notice tone="success">
              {invited.url ? (
                <>
                  <strong>Send this link to {invited.email}: it works once and is shown only now.</strong>
                  <CopyableValue value={invited.url} testId="invitation-url" copyLabel="Copy link" />
                </>
              ) : (
                <strong>{invited.email} already has an account and is now a member.</strong>
              )}
            </Notice>
          ) : null}
        </Card>
      ) : null}
      <Card title="Members">
        <ErrorNotice error={change.error} />
        <ListTable
          state={members}
          empty={<Empty title="No members yet">Invite a colleague above.</Empty>}
          columns={manage ? ['Name', 'Email', 'Role', 'Status', ACTIONS] : ['Name', 'Email', 'Role', 'Status']}
          row={(member) => (
            <tr key={member.userId}>
              <td>{member.user.name}</td>
              <td>{member.user.email}</td>
              <td>
                {manage ? (
                  <select
                    aria-label={`Role of ${member.user.name}`}
                    value={member.role}
                    onChange={(e) => void change.run(member, e.currentTarget.value as Role)}
                  >
                    {ROLE_NAMES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                ) : (
                  member.role
                )}
              </td>
              <td>{member.user.status === 'invited' ? <span class="badge">invited</span> : 'active'}</td>
              {manage ? (
                <td>
                  <Button variant="danger" onClick={() => setRemoving(member)}>
                    Remove
                  </Button>
                </td>
              ) : null}
            </tr>
          )}
        />
      </Card>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.user.name ?? ''}?`}
        body={<p>They lose access to this project at their next request.</p>}
        confirmLabel="Remove"
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
    </>
  );
};
