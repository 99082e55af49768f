// The API's types, from the zod contracts. Inside the workspace they are the contracts' own types;
// the package's build prints each one out in full (scripts/build-sdk.mjs), so the published
// declarations need neither the contracts nor zod. Inputs are the schemas' input types (fields
// with a default are optional), answers their output types.
import type * as C from '@palaver/contracts';
import type { z } from 'zod';

// Surface B
export type SurfaceBProject = C.SurfaceBProject;
export type Customer = C.Customer;
export type CustomerInput = z.input<typeof C.UpsertCustomerBody>;
export type ChatSummary = C.ChatSummary;
export type Chat = C.Chat;
export type ChatMessage = z.output<typeof C.ChatMessageB>;
export type ChatPostInput = z.input<typeof C.ChatPostBody>;
export type PreviousMessage = z.input<typeof C.PreviousMessage>;
export type QnaSummary = z.output<typeof C.QnaSummary>;

// Admin API
export type ProjectRecord = C.ProjectRecord;
export type CreateProjectInput = z.input<typeof C.CreateProjectBody>;
export type UpdateProjectInput = z.input<typeof C.UpdateProjectBody>;
export type AssistantRecord = C.AssistantRecord;
export type CreateAssistantInput = z.input<typeof C.CreateAssistantBody>;
export type UpdateAssistantInput = z.input<typeof C.UpdateAssistantBody>;
export type KeyRecord = C.KeyRecord;
export type CreatedKey = C.CreatedKey;
export type CreateKeyInput = z.input<typeof C.CreateKeyBody>;
export type Qna = C.Qna;
export type QnaInput = z.input<typeof C.QnaBody>;
export type UpdateQnaInput = z.input<typeof C.UpdateQnaBody>;
export type DocumentRecord = C.DocumentRecord;
export type DocumentInput = z.input<typeof C.DocumentBody>;
export type UpdateDocumentInput = z.input<typeof C.UpdateDocumentBody>;
export type CreatedIdentitySecret = C.CreatedIdentitySecret;
export type Source = C.Source;
export type SourceInput = z.input<typeof C.SourceBody>;
export type UpdateSourceInput = z.input<typeof C.UpdateSourceBody>;
export type SourcePage = C.SourcePage;
export type SourcePageStatus = C.SourcePageStatus;
export type Webhook = C.Webhook;
export type WebhookWithSecret = C.WebhookWithSecret;
export type WebhookInput = z.input<typeof C.WebhookBody>;
export type UpdateWebhookInput = z.input<typeof C.UpdateWebhookBody>;
export type WebhookDelivery = C.WebhookDelivery;
export type WebhookDeliveryStatus = C.DeliveryStatus;
export type WebhookPayload = C.WebhookPayload;
export type AdminConversation = C.AdminConversation;
export type AdminConversationFilter = z.input<typeof C.AdminConversationFilter>;
