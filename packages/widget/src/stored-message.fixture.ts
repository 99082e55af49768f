/** A message as the API stores it, for the widget's specs: complete, no feedback, no metadata, unless `extra` says otherwise. */
export const storedMessage = (id: string, role: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  role,
  parts: [{ type: 'text', text }],
  status: 'complete',
  feedback: null,
  metadata: {},
  ...extra,
});
