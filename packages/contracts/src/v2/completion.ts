import { z } from 'zod';
import { nonBlank, Uuid } from '../common';

export const Usage = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
  reasoningTokens: z.number(),
  cachedInputTokens: z.number(),
});
export type Usage = z.infer<typeof Usage>;

export const ZERO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  totalTokens: 0,
  reasoningTokens: 0,
  cachedInputTokens: 0,
};

export const FinishReason = z.enum(['stop', 'length', 'content_filter', 'tool-calls', 'error', 'other']);
export type FinishReason = z.infer<typeof FinishReason>;

export const ContentBlock = z.object({ type: z.literal('text'), text: z.string() });

export const CompletionStep = z.object({
  content: z.array(ContentBlock),
  finishReason: FinishReason,
  usage: Usage,
});

export const ChatCompletionResult = z.object({ steps: z.array(CompletionStep) });
export type ChatCompletionResult = z.infer<typeof ChatCompletionResult>;

export const ChatMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string().max(100_000) }),
  z.object({ role: z.literal('user'), content: nonBlank(z.string().min(1).max(100_000)) }),
  z.object({ role: z.literal('assistant'), content: z.string().max(100_000) }),
]);
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatCompletionsBody = z.object({
  messages: z
    .array(ChatMessage)
    .min(1)
    .max(200)
    .refine((messages) => messages.some((m) => m.role === 'user'), { message: 'must contain at least one user message' }),
  assistantId: Uuid.optional(),
  stream: z.boolean().default(false),
});
export type ChatCompletionsBody = z.infer<typeof ChatCompletionsBody>;
