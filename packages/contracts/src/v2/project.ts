import { z } from 'zod';
import { Uuid } from '../common';

export const WidgetPosition = z.enum(['bottom-right', 'bottom-left', 'top-right', 'top-left']);

export const ChatWidgetConfig = z.object({
  welcomeMessage: z.string(),
  inputPlaceholder: z.string(),
  displayName: z.string(),
  position: WidgetPosition,
  customCSSStyles: z.string(),
  userMessageBubbleColor: z.string(),
  userMessageBubbleColorDark: z.string(),
  brandColor: z.string(),
  brandColorDark: z.string(),
  width: z.number(),
  maxHeight: z.number(),
  bubbleRadius: z.number(),
  baseFontSize: z.number(),
  openDelay: z.number(),
  offset: z.object({ x: z.number(), y: z.number() }),
  assistantAvatar: z.url().optional(),
  chatButtonIcon: z.url().optional(),
  chatButtonColor: z.string().optional(),
});
export type ChatWidgetConfig = z.infer<typeof ChatWidgetConfig>;

export { DEFAULT_CHAT_WIDGET_CONFIG } from './widget-defaults';

export const QuickPrompt = z.object({ id: Uuid, title: z.string(), prompt: z.string() });
export type QuickPrompt = z.infer<typeof QuickPrompt>;

/** The spec's four fields, plus the project's quick prompts (an extension the widget shows). */
export const Project = z.object({
  id: Uuid,
  name: z.string(),
  description: z.string(),
  chatWidgetConfig: ChatWidgetConfig,
  quickPrompts: z.array(QuickPrompt).optional(),
});
export type Project = z.infer<typeof Project>;

export const ApiKeyQuery = z.object({ apiKey: z.string().min(1) });
