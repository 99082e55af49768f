import { z } from 'zod';
import { MAX_KEY, MAX_NAME, MAX_URL, Uuid } from '../common';
import { HumanAgentsAvailability } from './contact';

export const WidgetPosition = z.enum(['bottom-right', 'bottom-left', 'top-right', 'top-left']);

/** A CSS color: `#2563eb`, `rgb(…)`, a name. */
const COLOR = 100;

export const ChatWidgetConfig = z.object({
  welcomeMessage: z.string().max(2_000),
  inputPlaceholder: z.string().max(MAX_NAME),
  displayName: z.string().max(MAX_NAME),
  position: WidgetPosition,
  customCSSStyles: z.string().max(20_000),
  userMessageBubbleColor: z.string().max(COLOR),
  userMessageBubbleColorDark: z.string().max(COLOR),
  brandColor: z.string().max(COLOR),
  brandColorDark: z.string().max(COLOR),
  width: z.number(),
  maxHeight: z.number(),
  bubbleRadius: z.number(),
  baseFontSize: z.number(),
  openDelay: z.number(),
  offset: z.object({ x: z.number(), y: z.number() }),
  assistantAvatar: z.url().max(MAX_URL).optional(),
  chatButtonIcon: z.url().max(MAX_URL).optional(),
  chatButtonColor: z.string().max(COLOR).optional(),
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
  /** Whether a person can answer now (docs/widget.md, "Nobody online"). */
  humanAgents: HumanAgentsAvailability.optional(),
});
export type Project = z.infer<typeof Project>;

export const ApiKeyQuery = z.object({ apiKey: z.string().min(1).max(MAX_KEY) });
