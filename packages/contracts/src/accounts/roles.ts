import { z } from 'zod';
import { GLOBAL_PERMISSIONS, PROJECT_PERMISSIONS, ROLES } from './role-matrix';

export * from './role-matrix';

/** A user's role in one project. */
export const Role = z.enum(ROLES);
export const Permission = z.enum([...PROJECT_PERMISSIONS, ...GLOBAL_PERMISSIONS]);
export type Role = z.infer<typeof Role>;
export type Permission = z.infer<typeof Permission>;
