import { DEFAULT_CHAT_WIDGET_CONFIG } from '@palaver/contracts';
import { describe, expect, it } from 'vitest';
import { initialWidgetConfig, mergeWidgetConfig, widgetConfigPaths } from './widget-config';

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

  it('clears an optional field given as null', () => {
    const base = initialWidgetConfig({ chatButtonColor: '#ff0000', assistantAvatar: 'https://shop.example/a.png' });
    const merged = mergeWidgetConfig(base, { chatButtonColor: null });
    expect(merged).not.toHaveProperty('chatButtonColor');
    expect(merged.assistantAvatar).toBe('https://shop.example/a.png');
  });

  it('turns a patch into $set paths, one per field and offset axis, and $unset paths for the cleared', () => {
    expect(widgetConfigPaths({ brandColor: '#111111', offset: { x: 1, y: 2 }, width: undefined, chatButtonIcon: null })).toEqual({
      set: {
        'chatWidgetConfig.brandColor': '#111111',
        'chatWidgetConfig.offset.x': 1,
        'chatWidgetConfig.offset.y': 2,
      },
      unset: { 'chatWidgetConfig.chatButtonIcon': '' },
    });
    expect(widgetConfigPaths({})).toEqual({ set: {}, unset: {} });
  });
});
