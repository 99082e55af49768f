const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtmlAttribute = (value: string): string => value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
