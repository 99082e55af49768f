import { PalaverApiError, type PalaverClient } from '@palaver/client';
import { noticeFor } from './error-notice';
import { retryDelay, waitToRetry, worthRetrying } from './retry-wait';
import type { SessionState } from './session-state';
import { warnSiteOwner } from './site-owner-warning';

/**
 * Shows a failure to the visitor. A refused key also tells the site owner (console); a service
 * that could not be reached is tried again until it answers, and then the notice goes.
 */
export class FailureReporter {
  private reconnecting = false;

  constructor(
    private readonly client: PalaverClient | null,
    private readonly session: { readonly state: SessionState; set(patch: Partial<SessionState>): void },
    /** Ends the tries (the widget was removed). */
    private readonly lifetime: AbortSignal,
  ) {}

  report(error: unknown): void {
    const notice = noticeFor(error);
    this.session.set({ notice });
    if (notice.fatal && error instanceof PalaverApiError) warnSiteOwner(error);
    if (notice.reconnect) void this.reconnect();
  }

  /** Tries the service (its cheapest call) again and again, until it answers. */
  private async reconnect(): Promise<void> {
    const { client } = this;
    if (!client || this.reconnecting) return;
    this.reconnecting = true;
    try {
      for (let attempt = 0; !this.lifetime.aborted; attempt += 1) {
        await waitToRetry(retryDelay(attempt), this.lifetime);
        try {
          await client.getProject();
          break;
        } catch (error) {
          if (!worthRetrying(error)) return this.report(error);
        }
      }
    } finally {
      this.reconnecting = false;
    }
    // Only a notice of the outage goes: another failure's stays.
    if (this.session.state.notice?.reconnect && !this.lifetime.aborted) this.session.set({ notice: null });
  }
}
