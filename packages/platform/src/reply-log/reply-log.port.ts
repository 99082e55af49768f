export interface FollowOptions {
  /** Ends the reading when no entry came for this long. */
  idleMs: number;
  /** Ends the reading when aborted. */
  signal?: AbortSignal;
}

/**
 * A replayable log per reply (its fragments, in order): whoever joins late reads it from its first
 * entry, then follows it live. A log lives `ttlMs` after its last append (the reply's life and a
 * short while after), so a reload or another gateway can still read a reply that just ended.
 */
export interface ReplyLog {
  append(replyId: string, entry: unknown): Promise<void>;
  /** The entries so far (none for an unknown or expired reply). */
  entries(replyId: string): Promise<unknown[]>;
  /**
   * Every entry from the first, then each one appended later, as it comes. The reader decides
   * when the reply is over (it stops iterating); the reading also ends after `idleMs` of silence
   * or when `signal` aborts.
   */
  follow(replyId: string, options: FollowOptions): AsyncIterable<unknown>;
  close(): Promise<void>;
}
