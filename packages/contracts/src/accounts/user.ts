import { z } from 'zod';
import { credentialListing, httpUrl, MAX_NAME, Timestamp, Uuid } from '../common';
import { Role } from './roles';

/** Passwords: at least this long, at most this long (the hash's input is bounded). */
export const MIN_PASSWORD = 12;
export const MAX_PASSWORD = 256;

export const Email = z
  .email()
  .max(320)
  .transform((email) => email.toLowerCase());
export const Password = z.string().min(MIN_PASSWORD).max(MAX_PASSWORD);

/** A user as answered: never a password, a hash or an invitation token. */
export const UserRecord = z.object({
  id: Uuid,
  email: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  /** `invited` until the invitation is accepted (no password yet and no SSO sign-in). */
  status: z.enum(['invited', 'active']),
  createdAt: Timestamp,
});
export type UserRecord = z.infer<typeof UserRecord>;

export const CreateUserBody = z.object({
  email: Email,
  name: z.string().trim().min(1).max(MAX_NAME),
  image: httpUrl(2000).optional(),
  password: Password.optional(),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z
  .object({
    name: z.string().trim().min(1).max(MAX_NAME).optional(),
    image: httpUrl(2000).nullable().optional(),
    password: Password.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'nothing to update');
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** The one-time link of a user created without a password: shown in this answer only. */
export const Invitation = z.object({ token: z.string(), url: z.string(), expiresAt: Timestamp });
export type Invitation = z.infer<typeof Invitation>;

export const CreatedUser = UserRecord.extend({ invitation: Invitation.nullable() });
export type CreatedUser = z.infer<typeof CreatedUser>;

export const AcceptInviteBody = z.object({ token: z.string().min(1).max(200), password: Password });
export const LoginBody = z.object({ email: z.string().max(320), password: z.string().max(MAX_PASSWORD) });

export const Membership = z.object({ projectId: Uuid, userId: Uuid, role: Role, createdAt: Timestamp, updatedAt: Timestamp });
export type Membership = z.infer<typeof Membership>;
export const PutMemberBody = z.object({ role: Role });

/** A member as the project's Members page lists it. */
export const Member = Membership.extend({ user: UserRecord });
export type Member = z.infer<typeof Member>;

export const Me = z.object({
  id: Uuid,
  email: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  memberships: z.array(z.object({ projectId: Uuid, role: Role })),
});
export type Me = z.infer<typeof Me>;

/** Personal API tokens (`pat_…`): the user's rights, for scripts; shown once, stored as their SHA-256. */
export const API_TOKEN_PREFIX = 'pat_';
export const CreateApiTokenBody = z.object({ name: z.string().trim().min(1).max(MAX_NAME) });
export const ApiTokenRecord = z.object({
  id: Uuid,
  userId: Uuid,
  name: z.string(),
  ...credentialListing,
});
export type ApiTokenRecord = z.infer<typeof ApiTokenRecord>;
export const CreatedApiToken = ApiTokenRecord.extend({ token: z.string() });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;
