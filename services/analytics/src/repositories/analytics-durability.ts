import type { CollectionOptions } from '@palaver/platform';

/**
 * The analytics collections are projections of the event stream, so they are `derived`: written
 * before their fsync. The consumer acknowledges a batch only once the documents are synced
 * (FeedbackConsumer), so a crash before that gets the events delivered again, and every step of
 * the projection is idempotent (AnalyticsProjection).
 */
export const ANALYTICS_DURABILITY: CollectionOptions = { durability: 'derived' };
