/** The agent token the inbox works with, per project, for this tab only (like the admin token). */
const key = (projectId: string) => `palaver.agentToken.${projectId}`;

export const readAgentToken = (projectId: string): string | null => sessionStorage.getItem(key(projectId));
export const saveAgentToken = (projectId: string, token: string): void => sessionStorage.setItem(key(projectId), token);
export const clearAgentToken = (projectId: string): void => sessionStorage.removeItem(key(projectId));
