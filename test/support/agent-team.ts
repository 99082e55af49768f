import { type E2eApp, http } from './e2e-app';

/** The headers of a feed opened with `token`. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Calls to the agents' API of `e2e`, each with an agent's token. */
export const agentApi = (e2e: E2eApp) => (token: string, method: string, path: string, body?: unknown) =>
  http(`${e2e.url}/agent/v1${path}`, { method, body, token });

/** A new project with handoff on and two agents: Ada (with an email and an avatar) and Grace. */
export const handoffProject = async (e2e: E2eApp) => {
  const keys = await e2e.admin.createProject();
  await e2e.admin.call('PATCH', `/projects/${keys.project.id}`, { handoff: { enabled: true } });
  const ada = await e2e.admin.call('POST', `/projects/${keys.project.id}/agents`, {
    name: 'Ada',
    email: 'ada@example.com',
    image: 'https://img.example/ada.png',
  });
  const grace = await e2e.admin.call('POST', `/projects/${keys.project.id}/agents`, { name: 'Grace' });
  return { ...keys, ada, grace };
};
