import { type DynamicModule, Module } from '@nestjs/common';
import { type Infrastructure, portProviders } from '@palaver/platform';
import { DocumentRepository } from './document.repository';
import { DocumentService } from './document.service';
import { SearchHandler } from './handlers/search.handler';
import { KnowledgeVectors } from './knowledge.vectors';
import { KnowledgeRevisionRepository } from './knowledge-revision.repository';
import { LexicalIndex } from './lexical.index';
import { QnaRepository } from './qna.repository';
import { QnaService } from './qna.service';
import { SearchService } from './search.service';
import { CrawlWorker } from './sources/crawl.worker';
import { outboundGuardProvider } from './sources/outbound-guard.provider';
import { SourceHandler } from './sources/source.handler';
import { SourceRepository } from './sources/source.repository';
import { SourceService } from './sources/source.service';
import { SourceCrawler } from './sources/source-crawler';
import { SourcePageRepository } from './sources/source-page.repository';
import { UploadService } from './sources/upload.service';
import { TermStatsRepository } from './term-stats.repository';
import { TermStatsService } from './term-stats.service';

@Module({})
export class SearchModule {
  static register(infra: Infrastructure): DynamicModule {
    return {
      module: SearchModule,
      controllers: [SearchHandler, SourceHandler],
      providers: [
        ...portProviders(infra, 'documents', 'vectors', 'embedder', 'jobs', 'clock', 'config'),
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
        CrawlWorker,
        UploadService,
      ],
    };
  }
}
