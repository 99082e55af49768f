import { type ChatWidgetConfig, type ChatWidgetConfigPatch, DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts';

export type WidgetConfigPatch = ChatWidgetConfigPatch;

const definedFields = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The config with the patch's fields laid over it, field by field; `offset` merges x and y; `null` clears a field. */
export const mergeWidgetConfig = (base: ChatWidgetConfig, patch: WidgetConfigPatch): ChatWidgetConfig => {
  const { offset, ...rest } = patch;
  const merged: Record<string, unknown> = { ...base, offset: { ...base.offset, ...definedFields(offset ?? {}) } };
  for (const [field, value] of Object.entries(definedFields(rest))) {
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  return merged as ChatWidgetConfig;
};

export const initialWidgetConfig = (patch: WidgetConfigPatch = {}): ChatWidgetConfig =>
  mergeWidgetConfig(DEFAULT_CHAT_WIDGET_CONFIG, patch);

/**
 * The same merge as `$set` and `$unset` paths (`chatWidgetConfig.brandColor`,
 * `chatWidgetConfig.offset.x`), so concurrent patches of different fields never overwrite each other.
 */
export const widgetConfigPaths = (
  patch: WidgetConfigPatch,
  prefix = 'chatWidgetConfig',
): { set: Record<string, unknown>; unset: Record<string, ''> } => {
  const { offset, ...rest } = patch;
  const set: Record<string, unknown> = {};
  const unset: Record<string, ''> = {};
  for (const [field, value] of Object.entries(definedFields(rest))) {
    if (value === null) unset[`${prefix}.${field}`] = '';
    else set[`${prefix}.${field}`] = value;
  }
  for (const [axis, value] of Object.entries(definedFields(offset ?? {}))) set[`${prefix}.offset.${axis}`] = value;
  return { set, unset };
};
