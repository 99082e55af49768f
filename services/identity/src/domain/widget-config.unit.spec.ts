import { DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { initialWidgetConfig, mergeWidgetConfig, widgetConfigSetPaths } from './widget-config';

describe('widget config', () => {
  it('starts from the defaults', () => {
    expect(initialWidgetConfig()).toEqual(DEFAULT_CHAT_WIDGET_CONFIG);
    expect(initialWidgetConfig({ brandColor: '#000000' })).toEqual({ ...DEFAULT_CHAT_WIDGET_CONFIG, brandColor: '#000000' });
  });

  it('merges field by field and leaves the base untouched', () => {
    const base = initialWidgetConfig({ displayName: 'Helper' });
    const merged = mergeWidgetConfig(base, { welcomeMessage: 'Hello', chatButtonColor: '#ff0000' });
    expect(merged.displayName).toBe('Helper');
    expect(merged.welcomeMessage).toBe('Hello');
    expect(merged.chatButtonColor).toBe('#ff0000');
    expect(base.welcomeMessage).toBe(DEFAULT_CHAT_WIDGET_CONFIG.welcomeMessage);
  });

  it('merges the offset axis by axis and ignores undefined fields', () => {
    const merged = mergeWidgetConfig(DEFAULT_CHAT_WIDGET_CONFIG, {
      offset: { y: 80 } as { x: number; y: number },
      width: undefined,
    });
    expect(merged.offset).toEqual({ x: DEFAULT_CHAT_WIDGET_CONFIG.offset.x, y: 80 });
    expect(merged.width).toBe(DEFAULT_CHAT_WIDGET_CONFIG.width);
  });

  it('turns a patch into $set paths, one per field and offset axis', () => {
    expect(widgetConfigSetPaths({ brandColor: '#111111', offset: { x: 1, y: 2 }, width: undefined })).toEqual({
      'chatWidgetConfig.brandColor': '#111111',
      'chatWidgetConfig.offset.x': 1,
      'chatWidgetConfig.offset.y': 2,
    });
    expect(widgetConfigSetPaths({})).toEqual({});
  });
});
