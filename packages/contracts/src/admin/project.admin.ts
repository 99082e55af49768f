import { z } from 'zod';
import { credentialListing, httpUrl, MAX_URL, ModelName, Timestamp, Uuid } from '../common';
import { ChatWidgetConfig, QuickPrompt } from '../v2/project';
import { Availability } from './availability';
import { RetentionDays } from './privacy.admin';

export const Plan = z.enum(['free', 'pro', 'enterprise']);
export type Plan = z.infer<typeof Plan>;

/** null means unlimited. */
export const ProjectLimits = z.object({
  messagesPerMinute: z.number().int().min(1).nullable(),
  monthlyMessages: z.number().int().min(1).nullable(),
});
export type ProjectLimits = z.infer<typeof ProjectLimits>;

/**
 * Whether visitors can ask for a person. When enabled, a message containing one of the
 * trigger phrases (whole words, any case; the built-in list when empty) queues the conversation.
 */
export const HandoffSettings = z.object({
  enabled: z.boolean(),
  triggerPhrases: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  /** Told to a visitor asking for a person when nobody can answer (null: DEFAULT_OFFLINE_MESSAGE). */
  offlineMessage: z.string().trim().min(1).max(1000).nullable().default(null),
});
export type HandoffSettings = z.infer<typeof HandoffSettings>;
export const DEFAULT_HANDOFF_SETTINGS: HandoffSettings = { enabled: false, triggerPhrases: [], offlineMessage: null };

/**
 * Q&A replies that override the model: a visitor's question this similar (cosine of the
 * question embeddings, 0..1) to a Q&A entry's question is answered with the entry's answer
 * verbatim, and the model is not called.
 */
export const QnaOverrideSettings = z.object({
  enabled: z.boolean(),
  minScore: z.number().min(0.5).max(1).default(0.9),
});
export type QnaOverrideSettings = z.infer<typeof QnaOverrideSettings>;
export const DEFAULT_QNA_OVERRIDE_SETTINGS: QnaOverrideSettings = { enabled: true, minScore: 0.9 };

/**
 * Identity verification of the widget's visitors: the site's backend signs a user token (HS256
 * JWT) with the project's identity secret. `required`: an init without a user token is refused.
 */
export const IdentityVerificationSettings = z.object({ required: z.boolean() });
export type IdentityVerificationSettings = z.infer<typeof IdentityVerificationSettings>;

/** The project's identity verification as listed: never the secret, only when it was made. */
export const IdentityVerification = IdentityVerificationSettings.extend({ secretCreatedAt: Timestamp.nullable() });
export type IdentityVerification = z.infer<typeof IdentityVerification>;
export const DEFAULT_IDENTITY_VERIFICATION: IdentityVerification = { required: false, secretCreatedAt: null };

/** The identity secret, in the answer of the call that creates or rotates it only. */
export const CreatedIdentitySecret = z.object({
  secret: z.string(),
  createdAt: Timestamp,
  /** Until when the secret it replaced still verifies tokens (null on the first one). */
  previousSecretValidUntil: Timestamp.nullable(),
});
export type CreatedIdentitySecret = z.infer<typeof CreatedIdentitySecret>;

/** The whole project as the dashboard and the other services see it. */
export const ProjectRecord = z.object({
  id: Uuid,
  name: z.string(),
  description: z.string(),
  plan: Plan,
  limits: ProjectLimits,
  chatWidgetConfig: ChatWidgetConfig,
  quickPrompts: z.array(QuickPrompt),
  /** Absent on projects stored before the setting existed: off. */
  handoff: HandoffSettings.default(DEFAULT_HANDOFF_SETTINGS),
  /** Absent on projects stored before the setting existed: on, at the default score. */
  qnaOverride: QnaOverrideSettings.default(DEFAULT_QNA_OVERRIDE_SETTINGS),
  /** Absent on projects stored before the setting existed: not required, no secret. */
  identityVerification: IdentityVerification.default(DEFAULT_IDENTITY_VERIFICATION),
  /** Days a conversation is kept after its last activity; null (or absent on older projects) keeps it. */
  retentionDays: RetentionDays.default(null),
  /** The team's opening hours; null (and absent on projects stored before the setting existed): none. */
  availability: Availability.nullable().default(null),
  defaultAssistantId: Uuid.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProjectRecord = z.infer<typeof ProjectRecord>;

const QuickPromptInput = z.object({ title: z.string().min(1).max(200), prompt: z.string().min(1).max(2000) });
const LimitsInput = z.object({
  messagesPerMinute: z.number().int().min(1).nullable().optional(),
  monthlyMessages: z.number().int().min(1).nullable().optional(),
});

/** The widget fields to change; `null` clears an optional one (the avatar, the button's icon or colour). */
export const ChatWidgetConfigPatch = ChatWidgetConfig.partial().extend({
  assistantAvatar: httpUrl().nullable().optional(),
  chatButtonIcon: httpUrl().nullable().optional(),
  chatButtonColor: ChatWidgetConfig.shape.chatButtonColor.unwrap().nullable().optional(),
});
export type ChatWidgetConfigPatch = z.infer<typeof ChatWidgetConfigPatch>;

export const CreateProjectBody = z.object({
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  plan: Plan.optional(),
  chatWidgetConfig: ChatWidgetConfigPatch.optional(),
  quickPrompts: z.array(QuickPromptInput).max(20).optional(),
  limits: LimitsInput.optional(),
  handoff: HandoffSettings.optional(),
  qnaOverride: QnaOverrideSettings.optional(),
  identityVerification: IdentityVerificationSettings.optional(),
  retentionDays: RetentionDays.optional(),
  /** null removes the opening hours. */
  availability: Availability.nullable().optional(),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;

export const UpdateProjectBody = CreateProjectBody.partial();
export type UpdateProjectBody = z.infer<typeof UpdateProjectBody>;

export const AssistantRecord = z.object({
  id: Uuid,
  projectId: Uuid,
  name: z.string(),
  instructions: z.string(),
  model: z.string().nullable(),
  createdAt: Timestamp,
});
export type AssistantRecord = z.infer<typeof AssistantRecord>;

export const CreateAssistantBody = z.object({
  name: z.string().min(1).max(200),
  instructions: z.string().max(20_000).optional(),
  model: ModelName.optional(),
});
export type CreateAssistantBody = z.infer<typeof CreateAssistantBody>;

/** `model: null` goes back to the configured default model. */
export const UpdateAssistantBody = z.object({
  name: z.string().min(1).max(200).optional(),
  instructions: z.string().max(20_000).optional(),
  model: ModelName.nullable().optional(),
});
export type UpdateAssistantBody = z.infer<typeof UpdateAssistantBody>;

export const KeyType = z.enum(['publishable', 'private']);
export type KeyType = z.infer<typeof KeyType>;

/**
 * A key as listed: a private key only by its last characters. A publishable key is public by
 * design (it sits in every page that embeds the widget), so it is listed whole in `key`; keys
 * created before publishable keys were kept have only their `hint`.
 */
export const KeyRecord = z.object({
  id: Uuid,
  projectId: Uuid,
  type: KeyType,
  name: z.string(),
  assistantId: Uuid.nullable(),
  allowedOrigins: z.array(z.string()),
  ...credentialListing,
  key: z
    .string()
    .optional()
    .describe('The full publishable key (never for a private key; absent for publishable keys created before it was kept)'),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

/** An origin as a browser sends it (scheme://host[:port]) or `*` for any. */
export const AllowedOrigin = z.union([
  z.literal('*'),
  z
    .string()
    .max(MAX_URL)
    .regex(/^https?:\/\/[^/\s?#]+$/, 'must be an origin such as https://example.com'),
]);

export const CreateKeyBody = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('publishable'),
    name: z.string().min(1).max(200),
    assistantId: Uuid,
    allowedOrigins: z.array(AllowedOrigin).max(100),
  }),
  z.object({ type: z.literal('private'), name: z.string().min(1).max(200) }),
]);
export type CreateKeyBody = z.infer<typeof CreateKeyBody>;

export const CreatedKey = KeyRecord.extend({ key: z.string() });
export type CreatedKey = z.infer<typeof CreatedKey>;
