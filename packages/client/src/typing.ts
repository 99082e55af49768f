/**
 * The typing contract's timings (TYPING_TTL_MS, TYPING_MIN_INTERVAL_MS in @palaver/contracts),
 * repeated here because the published SDK bundles no workspace code; a test keeps them equal.
 */
/** A typing signal means "typing for the next 5 s": show it until then or until that side's message arrives. */
export const TYPING_TTL_MS = 5_000;
/** Send at most one typing signal per conversation in this interval: the server drops extras. */
export const TYPING_MIN_INTERVAL_MS = 2_000;
