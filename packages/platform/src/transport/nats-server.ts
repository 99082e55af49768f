import { ServerNats } from '@nestjs/microservices';
import { coalesceWrites } from './nats-write-coalescing';

/**
 * Nest's NATS server for patterns that are plain subjects, as all of ours are (contracts). Nest
 * first tries `JSON.parse` on every incoming subject, in case a client sent an object pattern;
 * on a plain subject that throws, and building that SyntaxError costs more than the rest of the
 * routing. Object patterns (JSON text, starting with `{`) still go through Nest's own parsing.
 */
export class SubjectServerNats extends ServerNats {
  override getRouteFromPattern(pattern: string): string {
    return pattern.startsWith('{') ? super.getRouteFromPattern(pattern) : pattern;
  }

  /** Replies go out in one write per turn of the event loop (see coalesceWrites). */
  override async createNatsClient() {
    return coalesceWrites(await super.createNatsClient());
  }
}
