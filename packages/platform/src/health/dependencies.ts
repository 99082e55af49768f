import { AppError } from '@palaver/contracts';

/**
 * The connections this process depends on (NATS, Redis, ...), each able to say whether it is up
 * right now, so that readiness can report not-ready while one is down and the client reconnects.
 */
const checks = new Set<{ name: string; up: () => boolean }>();

/** Registers a connection; the returned function unregisters it (when its adapter closes). */
export const registerDependency = (name: string, up: () => boolean): (() => void) => {
  const check = { name, up };
  checks.add(check);
  return () => checks.delete(check);
};

/** Names of the registered connections that are down now (each name once). */
export const dependenciesDown = (): string[] => [...new Set([...checks].filter((c) => !c.up()).map((c) => c.name))];

/**
 * What a request gets when a connection it needs is known to be down: 503 SERVICE_UNAVAILABLE
 * with a Retry-After, at once, rather than waiting for a reconnect that may take the whole outage.
 */
export const dependencyUnavailable = (name: string, reason = 'unreachable, reconnecting'): AppError =>
  new AppError('SERVICE_UNAVAILABLE', `${name} ${reason}`, { retryAfter: 1, service: name });

/** For a health handler: SERVICE_UNAVAILABLE while a connection this process needs is down. */
export const assertDependenciesUp = (): void => {
  const down = dependenciesDown();
  if (down.length > 0) {
    throw new AppError('SERVICE_UNAVAILABLE', `not ready: ${down.join(', ')} unreachable, reconnecting`, {
      retryAfter: 1,
      service: down.join(','),
    });
  }
};
