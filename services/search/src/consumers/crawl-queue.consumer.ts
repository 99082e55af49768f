import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CRAWL_QUEUE, CRAWL_SOURCE_JOB, CrawlSourceJob } from '@palaver/contracts';
import { type Clock, type Config, type Job, type JobQueue, type JobWorker, logger, type OutboundGuard, Ports } from '@palaver/platform';
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
export class CrawlQueueConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private worker: JobWorker | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  constructor(
    @Inject(Ports.jobs) private readonly jobs: JobQueue,
    @Inject(Ports.clock) private readonly clock: Clock,
    @Inject(Ports.config) private readonly config: Config,
    @Inject(SourceCrawler) private readonly crawler: SourceCrawler,
    @Inject(SourceRepository) private readonly sources: SourceRepository,
    @Inject(SourceService) private readonly service: SourceService,
    @Inject(OUTBOUND_GUARD) private readonly guard: OutboundGuard,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.worker = await this.jobs.process(CRAWL_QUEUE, (job) => this.run(job), { concurrency: CRAWLS_AT_ONCE });
    this.timer = setInterval(() => this.tick(), this.config.SOURCE_SCHEDULE_INTERVAL_MS);
    this.timer.unref();
    this.tick();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
    await this.worker?.close();
    this.worker = null;
    this.guard.close();
  }

  /** Syncs the sources that are due and requeues lost crawls; one tick at a time. */
  tick(): Promise<void> {
    this.ticking ??= this.schedule()
      .catch((err: unknown) => logger.warn({ err }, 'source schedule failed; tried again at the next interval'))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async schedule(): Promise<void> {
    for (const source of await this.sources.due(this.clock.now().toISOString(), 100)) {
      await this.service.sync(source.projectId, source._id);
    }
    for (const source of await this.sources.unfinished(100)) await this.service.resumeIfLost(source);
  }

  private async run(job: Job): Promise<void> {
    if (job.name !== CRAWL_SOURCE_JOB) {
      logger.error({ jobId: job.id, name: job.name }, 'unknown crawl job dropped');
      return;
    }
    const parsed = CrawlSourceJob.safeParse(job.data);
    if (!parsed.success) {
      logger.error({ jobId: job.id }, 'malformed crawl job dropped');
      return;
    }
    const { projectId, sourceId, runId } = parsed.data;
    await this.crawler.crawl(projectId, sourceId, runId, job.attempt >= CRAWL_ATTEMPTS);
  }
}
