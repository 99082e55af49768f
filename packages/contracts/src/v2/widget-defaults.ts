import type { ChatWidgetConfig } from './project';

/** Kept free of zod so that the browser widget can import it without the schemas. */
export const DEFAULT_CHAT_WIDGET_CONFIG: ChatWidgetConfig = {
  welcomeMessage: 'Hi! How can I help you today?',
  inputPlaceholder: 'Ask a question…',
  displayName: 'Assistant',
  position: 'bottom-right',
  customCSSStyles: '',
  userMessageBubbleColor: '#2563eb',
  userMessageBubbleColorDark: '#3b82f6',
  brandColor: '#2563eb',
  brandColorDark: '#3b82f6',
  width: 400,
  maxHeight: 640,
  bubbleRadius: 16,
  baseFontSize: 14,
  openDelay: 0,
  offset: { x: 20, y: 20 },
};
