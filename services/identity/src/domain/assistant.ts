import type { AssistantRecord, CreateAssistantBody } from '@palaver/contracts';

export const DEFAULT_ASSISTANT_NAME = 'Assistant';

export const DEFAULT_ASSISTANT_INSTRUCTIONS =
  'You are a helpful assistant. Answer questions clearly and concisely, using the provided knowledge when it is relevant. ' +
  'If you do not know the answer, say so instead of guessing.';

/** An assistant without instructions gets the neutral default ones; without a model, the configured default model. */
export const newAssistant = (projectId: string, id: string, body: CreateAssistantBody, now: string): AssistantRecord => ({
  id,
  projectId,
  name: body.name,
  instructions: body.instructions ?? DEFAULT_ASSISTANT_INSTRUCTIONS,
  model: body.model ?? null,
  createdAt: now,
});

export const defaultAssistant = (projectId: string, id: string, now: string): AssistantRecord =>
  newAssistant(projectId, id, { name: DEFAULT_ASSISTANT_NAME }, now);
