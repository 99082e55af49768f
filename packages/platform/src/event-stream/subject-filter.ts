/**
 * NATS subject matching: subjects are dot-separated tokens; in a filter `*` matches exactly one
 * token and `>` (last token only) matches one or more.
 */
export const subjectMatcher = (filter: string): ((subject: string) => boolean) => {
  assertValidFilter(filter);
  const pattern = filter.split('.');
  return (subject) => {
    const tokens = subject.split('.');
    for (let i = 0; i < pattern.length; i++) {
      const p = pattern[i];
      if (p === '>') return tokens.length > i;
      if (i >= tokens.length) return false;
      if (p !== '*' && p !== tokens[i]) return false;
    }
    return tokens.length === pattern.length;
  };
};

export const assertValidFilter = (filter: string): void => {
  const tokens = filter.split('.');
  tokens.forEach((token, i) => {
    const wildcard = token === '*' || (token === '>' && i === tokens.length - 1);
    if (token === '' || /\s/.test(token) || (!wildcard && /[*>]/.test(token))) {
      throw new Error(`invalid subject filter: ${JSON.stringify(filter)}`);
    }
  });
};

export const assertValidSubject = (subject: string): void => {
  const tokens = subject.split('.');
  if (tokens.some((token) => token === '' || /[\s*>]/.test(token))) {
    throw new Error(`invalid subject: ${JSON.stringify(subject)}`);
  }
};

/** Durable consumer names as NATS accepts them (and safe as file names). */
export const assertValidDurable = (durable: string): void => {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(durable)) throw new Error(`invalid durable consumer name: ${JSON.stringify(durable)}`);
};

/** Wait before a message whose handler threw is delivered again: doubling from `base`, capped. */
export const redeliveryDelay = (attempt: number, baseMs: number, maxMs = 5_000): number =>
  Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
