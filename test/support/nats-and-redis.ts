import { infraAvailable, infraUrl } from '@palaver/platform/testing';

/** Whether the shared NATS and Redis both answer: the suites that need them are skipped otherwise. */
export const natsAndRedisAvailable = (await infraAvailable('nats')) && (await infraAvailable('redis'));

/** What puts the app on the shared NATS and Redis. */
export const ON_NATS_AND_REDIS = { NATS_URL: infraUrl('nats'), REDIS_URL: infraUrl('redis') };

/** A suite's title, saying so when it is skipped for want of NATS or Redis. */
export const natsAndRedisTitle = (title: string): string =>
  natsAndRedisAvailable ? title : `${title} (NATS or Redis unreachable: skipped)`;

/** The app embedded, and on the shared NATS and Redis (available only when they answer). */
export const APP_MODES = [
  { name: 'embedded', overrides: {}, available: true },
  { name: 'NATS + Redis', overrides: natsAndRedisAvailable ? ON_NATS_AND_REDIS : {}, available: natsAndRedisAvailable },
];
