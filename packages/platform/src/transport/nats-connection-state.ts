import type { NatsConnection } from 'nats';
import { registerDependency } from '../health/dependencies';
import { logger } from '../logger/logger';

/**
 * Whether a NATS connection is up now, from the client's status events: `up` is a field to read on
 * every request (no round trip), and `onDown` tells the requests waiting for an answer that none
 * can come (the server forgets a connection's subscriptions, its reply inbox included, when the
 * connection drops: an answer sent meanwhile is lost).
 */
export class NatsConnectionState {
  up = true;
  private readonly downListeners = new Set<() => void>();
  private readonly unregister: () => void;

  constructor(nc: NatsConnection) {
    this.unregister = registerDependency('nats', () => this.up);
    void this.follow(nc);
  }

  /** `listener` runs on each disconnect; the returned function stops that. */
  onDown(listener: () => void): () => void {
    this.downListeners.add(listener);
    return () => this.downListeners.delete(listener);
  }

  private async follow(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' && this.up) {
        this.up = false;
        logger.warn({ server: status.data }, 'NATS disconnected; reconnecting');
        for (const listener of [...this.downListeners]) listener();
      } else if (status.type === 'reconnect') {
        this.up = true;
        logger.info({ server: status.data }, 'NATS reconnected');
      }
    }
    // The iterator ends when the connection is closed for good.
    this.up = false;
    this.unregister();
  }
}
