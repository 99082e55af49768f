import { z } from 'zod';
import { MAX_KEY, Uuid } from '../common';

export const Visitor = z.object({
  object: z.literal('visitor'),
  id: Uuid,
  type: z.enum(['anonymous', 'identified']),
  externalId: z.string().nullable(),
  name: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type Visitor = z.infer<typeof Visitor>;

export const InitIdentityBody = z.object({
  apiKey: z.string().min(1).max(MAX_KEY),
  saVid: z.string().min(1).max(100),
});
export type InitIdentityBody = z.infer<typeof InitIdentityBody>;

export const InitIdentityResponse = z.object({ sessionToken: z.string(), visitor: Visitor });
export type InitIdentityResponse = z.infer<typeof InitIdentityResponse>;
