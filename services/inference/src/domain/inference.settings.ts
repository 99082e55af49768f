/**
 * Every inference job runs once: its service (GenerateReplyService, GenerateCompletionService)
 * never throws (it reports a failure to the conversation and on the token channel), because a
 * retry would stream the reply a second time to a channel that already carried its deltas.
 */
export const INFERENCE_JOB_ATTEMPTS = 1;

/** Reporting a result to the conversation service is retried while it is unavailable. */
export const REPORT_RETRY_DELAYS_MS = [200, 1_000, 3_000] as const;

/**
 * The assistants kept by each inference process: projects at most, assistants per project at most,
 * and how long one is reused at most should identity's announcement of its change be lost.
 */
export const ASSISTANT_CACHE = { projects: 10_000, perProject: 100, ttlMs: 30_000 } as const;
