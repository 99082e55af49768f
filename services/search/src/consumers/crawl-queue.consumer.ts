import { Inject, Injectable } from '@nestjs/common';
import { CRAWL_QUEUE, CRAWL_SOURCE_JOB, CrawlSourceJob } from '@palaver/contracts';
import {
  type Clock,
  type Config,
  type Job,
  type JobQueue,
  jobData,
  logger,
  type OutboundGuard,
  Ports,
  QueueConsumer,
  type QueueConsumption,
} from '@palaver/platform';
import { OUTBOUND_GUARD } from '../repositories/outbound-guard.provider';
import { SourceRepository } from '../repositories/source.repository';
import { CRAWL_ATTEMPTS, SourceService } from '../services/source.service';
import { SourceCrawler } from '../services/source-crawler';

/** Crawls one search process runs at once (each crawl is itself concurrent). */
const CRAWLS_AT_ONCE = 2;

/**
 * Runs crawls from the crawl queue, and starts the scheduled ones: every
 * SOURCE_SCHEDULE_INTERVAL_MS, each source
 * whose next sync is due is synced (the job id, one per source, keeps it to one crawl at a time
 * even with several search processes), and a crawl queued or under way whose job is gone (an
 * embedded queue's jobs do not outlive their process) is queued again and resumes.
 */
@Injectable()
export class CrawlQueueConsumer extends QueueConsumer {
  constructor(
    @Inject(Ports.jobs) jobs: JobQueue,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(SourceCrawler) private readonly crawler: SourceCrawler,
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(SourceService) private readonly service: SourceService,
    @Inject(OUTBOUND_GUARD) private readonly guard: OutboundGuard,
  ) {
    super(jobs);
  }

  protected consumption(): QueueConsumption {
    return {
      queue: CRAWL_QUEUE,
      handlers: { [CRAWL_SOURCE_JOB]: (job) => this.crawl(job) },
      concurrency: CRAWLS_AT_ONCE,
      periodic: {
        run: () => this.schedule(),
        everyMs: this.config.SOURCE_SCHEDULE_INTERVAL_MS,
        failed: (err) => logger.warn({ err }, 'source schedule failed; tried again at the next interval'),
      },
    };
  }

  override async onModuleDestroy(): Promise<void> {
    await super.onModuleDestroy();
    this.guard.close();
  }

  /** Syncs the sources that are due and requeues lost crawls. */
  private async schedule(): Promise<void> {
    for (const source of await this.sources.due(this.clock.now().toISOString(), 100)) {
      await this.service.sync(source.projectId, source._id);
    }
    for (const source of await this.sources.unfinished(100)) await this.service.resumeIfLost(source);
  }

  private async crawl(job: Job): Promise<void> {
    const data = jobData(CrawlSourceJob, job);
    if (!data) return;
    await this.crawler.crawl(data.projectId, data.sourceId, data.runId, job.attempt >= CRAWL_ATTEMPTS);
  }
}
