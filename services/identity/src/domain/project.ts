import {
  type CreateProjectBody,
  DEFAULT_HANDOFF_SETTINGS,
  DEFAULT_QNA_OVERRIDE_SETTINGS,
  type Plan,
  type ProjectLimits,
  type ProjectRecord,
  type QuickPrompt,
  type UpdateProjectBody,
} from '@palaver/contracts';
import { initialWidgetConfig, widgetConfigPaths } from './widget-config';

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
  qnaOverride: input.qnaOverride ?? DEFAULT_QNA_OVERRIDE_SETTINGS,
  identityVerification: { required: input.identityVerification?.required ?? false, secretCreatedAt: null },
  retentionDays: input.retentionDays ?? null,
  availability: input.availability ?? null,
  defaultAssistantId: ids.defaultAssistantId,
  createdAt: now,
  updatedAt: now,
});

/**
 * A partial patch as an update of `$set` (and `$unset`) paths: scalar fields replace, the widget
 * config and the limits merge field by field (a limit set to null becomes unlimited, a widget
 * field set to null is removed), quick prompts replace the whole list.
 */
export const projectPatchUpdate = (
  patch: UpdateProjectBody,
  newId: () => string,
  now: string,
): { $set: Record<string, unknown>; $unset?: Record<string, ''> } => {
  const set: Record<string, unknown> = { updatedAt: now };
  let unset: Record<string, ''> = {};
  if (patch.name !== undefined) set.name = patch.name;
  if (patch.description !== undefined) set.description = patch.description;
  if (patch.plan !== undefined) set.plan = patch.plan;
  if (patch.chatWidgetConfig !== undefined) {
    const widget = widgetConfigPaths(patch.chatWidgetConfig);
    Object.assign(set, widget.set);
    unset = widget.unset;
  }
  if (patch.limits?.messagesPerMinute !== undefined) set['limits.messagesPerMinute'] = patch.limits.messagesPerMinute;
  if (patch.limits?.monthlyMessages !== undefined) set['limits.monthlyMessages'] = patch.limits.monthlyMessages;
  if (patch.quickPrompts !== undefined) set.quickPrompts = withIds(patch.quickPrompts, newId);
  if (patch.handoff !== undefined) set.handoff = patch.handoff;
  if (patch.qnaOverride !== undefined) set.qnaOverride = patch.qnaOverride;
  if (patch.retentionDays !== undefined) set.retentionDays = patch.retentionDays;
  if (patch.availability !== undefined) set.availability = patch.availability;
  if (patch.identityVerification !== undefined) set['identityVerification.required'] = patch.identityVerification.required;
  return Object.keys(unset).length > 0 ? { $set: set, $unset: unset } : { $set: set };
};
