import { connect, type NatsConnection } from 'nats';
import { NatsConnectionState } from './nats-connection-state';
import { natsConnectionOptions } from './nats-options';
import { coalesceWrites } from './nats-write-coalescing';

export interface NatsLease {
  readonly nc: NatsConnection;
  /** Whether the connection is up now (see NatsConnectionState). */
  readonly state: NatsConnectionState;
  /** Gives the connection back; the last lease to go closes it (after flushing what is queued). */
  release(): Promise<void>;
}

/**
 * One NATS connection for everything a process does on one server list: every service's server,
 * the requester and the event stream. Each piece on a connection of its own made a turn of the
 * event loop write to, and the NATS server answer on, as many sockets as there were pieces with
 * something to send (seven when every service runs in one process), each write and read a system
 * call and a wake-up of the other side. Opened at the first lease, closed with the last one; a
 * lease taken after that opens it again.
 */
export class SharedNatsConnection {
  private connection: Promise<{ nc: NatsConnection; state: NatsConnectionState }> | null = null;
  private leases = 0;
  /** The servers of `url`, a comma-separated list. */
  readonly servers: string[];

  constructor(
    url: string,
    private readonly name = 'palaver',
  ) {
    this.servers = url.split(',').map((s) => s.trim());
  }

  async lease(): Promise<NatsLease> {
    this.leases += 1;
    this.connection ??= connect({
      servers: this.servers,
      name: this.name,
      ...natsConnectionOptions,
    })
      .then(coalesceWrites)
      .then((nc) => ({ nc, state: new NatsConnectionState(nc) }));
    const opening = this.connection;
    let nc: NatsConnection;
    let state: NatsConnectionState;
    try {
      ({ nc, state } = await opening);
    } catch (error) {
      this.leases -= 1;
      if (this.connection === opening) this.connection = null;
      throw error;
    }
    let released = false;
    return {
      nc,
      state,
      release: async () => {
        if (released) return;
        released = true;
        this.leases -= 1;
        if (this.leases > 0 || this.connection !== opening) return;
        this.connection = null;
        if (!nc.isClosed()) await nc.drain().catch(() => nc.close());
      },
    };
  }
}
