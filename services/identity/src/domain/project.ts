import {
  type CreateProjectBody,
  DEFAULT_HANDOFF_SETTINGS,
  type Plan,
  type ProjectLimits,
  type ProjectRecord,
  type QuickPrompt,
  type UpdateProjectBody,
} from '@palaver/contracts';
import { initialWidgetConfig, widgetConfigSetPaths } from './widget-config';

/** Self-hosted: every feature is available unless the operator picks a plan. */
export const DEFAULT_PLAN: Plan = 'enterprise';

type LimitsInput = NonNullable<CreateProjectBody['limits']>;
type QuickPromptInput = NonNullable<CreateProjectBody['quickPrompts']>[number];

const withIds = (prompts: readonly QuickPromptInput[], newId: () => string): QuickPrompt[] =>
  prompts.map((p) => ({ id: newId(), title: p.title, prompt: p.prompt }));

const initialLimits = (input: LimitsInput = {}): ProjectLimits => ({
  messagesPerMinute: input.messagesPerMinute ?? null,
  monthlyMessages: input.monthlyMessages ?? null,
});

export const newProject = (
  input: CreateProjectBody,
  ids: { projectId: string; defaultAssistantId: string; newId: () => string },
  now: string,
): ProjectRecord => ({
  id: ids.projectId,
  name: input.name,
  description: input.description ?? '',
  plan: input.plan ?? DEFAULT_PLAN,
  limits: initialLimits(input.limits),
  chatWidgetConfig: initialWidgetConfig(input.chatWidgetConfig),
  quickPrompts: withIds(input.quickPrompts ?? [], ids.newId),
  handoff: input.handoff ?? DEFAULT_HANDOFF_SETTINGS,
  defaultAssistantId: ids.defaultAssistantId,
  createdAt: now,
  updatedAt: now,
});

/**
 * A partial patch as `$set` paths: scalar fields replace, the widget config and the limits merge
 * field by field (a limit set to null becomes unlimited), quick prompts replace the whole list.
 */
export const projectPatchSet = (patch: UpdateProjectBody, newId: () => string, now: string): Record<string, unknown> => {
  const set: Record<string, unknown> = { updatedAt: now };
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.plan !== undefined) set.plan = patch.plan;
  if (patch.chatWidgetConfig !== undefined) Object.assign(set, widgetConfigSetPaths(patch.chatWidgetConfig));
  if (patch.limits?.messagesPerMinute !== undefined) set['limits.messagesPerMinute'] = patch.limits.messagesPerMinute;
  if (patch.limits?.monthlyMessages !== undefined) set['limits.monthlyMessages'] = patch.limits.monthlyMessages;
  if (patch.quickPrompts !== undefined) set.quickPrompts = withIds(patch.quickPrompts, newId);
  if (patch.handoff !== undefined) set.handoff = patch.handoff;
  return set;
};
