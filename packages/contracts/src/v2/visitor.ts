import { z } from 'zod';
import { MAX_KEY, Uuid } from '../common';
import { Contact } from './contact';

/** Who a visitor is, as both the visitor's API and the admin's export show it. */
export const visitorIdentity = {
  id: Uuid,
  type: z.enum(['anonymous', 'identified']),
  /** Surface B's appUserId, or a verified user token's `sub`; null for an anonymous visitor. */
  externalId: z.string().nullable(),
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
};

export const Visitor = z.object({
  object: z.literal('visitor'),
  ...visitorIdentity,
  /** The email (and name) the visitor left when nobody could answer (POST /v2/conversations/{id}/contact). */
  contact: Contact.nullable().optional(),
});
export type Visitor = z.infer<typeof Visitor>;

/** A user token (a JWT) is a few hundred characters; this leaves room for long names and URLs. */
export const MAX_USER_TOKEN = 4096;

export const InitIdentityBody = z.object({
  apiKey: z.string().min(1).max(MAX_KEY),
  /** The device id of an anonymous visitor; never a way to reach an identified one. */
  saVid: z.string().min(1).max(100),
  /** A JWT the site's backend signed with the project's identity secret: the session is on that identified visitor. */
  userToken: z.string().min(1).max(MAX_USER_TOKEN).nullable().optional(),
});
export type InitIdentityBody = z.infer<typeof InitIdentityBody>;

export const InitIdentityResponse = z.object({ sessionToken: z.string(), visitor: Visitor });
export type InitIdentityResponse = z.infer<typeof InitIdentityResponse>;
