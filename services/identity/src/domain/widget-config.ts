import { type ChatWidgetConfig, DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts';

export type WidgetConfigPatch = Partial<ChatWidgetConfig>;

const definedFields = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The config with the patch's fields laid over it, field by field; `offset` merges x and y. */
export const mergeWidgetConfig = (base: ChatWidgetConfig, patch: WidgetConfigPatch): ChatWidgetConfig => {
  const { offset, ...rest } = patch;
  return {
    ...base,
    ...definedFields(rest),
    offset: { ...base.offset, ...definedFields(offset ?? {}) },
  };
};

export const initialWidgetConfig = (patch: WidgetConfigPatch = {}): ChatWidgetConfig =>
  mergeWidgetConfig(DEFAULT_CHAT_WIDGET_CONFIG, patch);

/**
 * The same merge as `$set` paths (`chatWidgetConfig.brandColor`, `chatWidgetConfig.offset.x`),
 * so concurrent patches of different fields never overwrite each other.
 */
export const widgetConfigSetPaths = (patch: WidgetConfigPatch, prefix = 'chatWidgetConfig'): Record<string, unknown> => {
  const { offset, ...rest } = patch;
  const set: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(definedFields(rest))) set[`${prefix}.${field}`] = value;
  for (const [axis, value] of Object.entries(definedFields(offset ?? {}))) set[`${prefix}.offset.${axis}`] = value;
  return set;
};
