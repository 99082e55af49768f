/**
 * `value` as a link or image address when it is an absolute http(s) URL, else null. Stored data
 * may predate the API's validation, and a `javascript:` address in an href runs script in the
 * dashboard's origin (with the admin token in reach), so nothing else is ever rendered as one.
 */
export const httpUrl = (value: string | null | undefined): string | null => {
  if (!value) return null;
  try {
    // The URL parser lowercases the scheme and drops the whitespace and control characters a
    // browser ignores, so ` JaVa\tScript:` is seen as what it is.
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};
