import { IdentityMessages } from '@palaver/contracts';
import type { GatewayDeps } from '../../gateway.deps';

/**
 * The project id once identity has found the project (PROJECT_NOT_FOUND otherwise): search keeps
 * knowledge under any project id it is given, so the routes that create or list it ask first.
 */
export const existingProject = async (services: GatewayDeps['services'], projectId: string): Promise<string> => {
  await services.send(IdentityMessages.getProject, { projectId });
  return projectId;
};
