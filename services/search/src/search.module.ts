import { type DynamicModule, Module } from '@nestjs/common';
import { AuditOutbox, type Infrastructure, portProviders } from '@palaver/platform';
import { CrawlQueueConsumer } from './consumers/crawl-queue.consumer';
import { ProjectErasureHandler } from './handlers/project-erasure.handler';
import { SearchHandler } from './handlers/search.handler';
import { SourceHandler } from './handlers/source.handler';
import { DocumentRepository } from './repositories/document.repository';
import { KnowledgeRevisionRepository } from './repositories/knowledge-revision.repository';
import { KnowledgeVectors } from './repositories/knowledge-vectors';
import { LexicalIndex } from './repositories/lexical-index';
import { outboundGuardProvider } from './repositories/outbound-guard.provider';
import { QnaRepository } from './repositories/qna.repository';
import { SourceRepository } from './repositories/source.repository';
import { SourcePageRepository } from './repositories/source-page.repository';
import { TermStatsRepository } from './repositories/term-stats.repository';
import { DocumentService } from './services/document.service';
import { ProjectKnowledgeErasureService } from './services/project-knowledge-erasure.service';
import { QnaService } from './services/qna.service';
import { SearchService } from './services/search.service';
import { SourceService } from './services/source.service';
import { SourceCrawler } from './services/source-crawler';
import { TermStatsService } from './services/term-stats.service';
import { UploadService } from './services/upload.service';

@Module({})
export class SearchModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: SearchModule,
      controllers: [SearchHandler, SourceHandler, ProjectErasureHandler],
      providers: [
        ...portProviders(infra, 'documents', 'vectors', 'embedder', 'jobs', 'services', 'clock', 'config'),
        DocumentRepository,
        QnaRepository,
        TermStatsRepository,
        KnowledgeRevisionRepository,
        KnowledgeVectors,
        LexicalIndex,
        TermStatsService,
        DocumentService,
        QnaService,
        SearchService,
        outboundGuardProvider,
        SourceRepository,
        SourcePageRepository,
        SourceService,
        SourceCrawler,
        CrawlQueueConsumer,
        UploadService,
        ProjectKnowledgeErasureService,
        AuditOutbox,
      ],
    };
  }
}
