import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { Infrastructure } from '@palaver/platform';
import { KnowledgeVectors } from '../repositories/knowledge-vectors';
import { LexicalIndex } from '../repositories/lexical-index';
import { SearchModule } from '../search.module';
import { DocumentService } from '../services/document.service';
import { QnaService } from '../services/qna.service';
import { SearchService } from '../services/search.service';

/** The search service's providers wired as in production, called in-process without a transport (benchmarks). */
export const createSearchContext = async (infra: Infrastructure) => {
  const app = await NestFactory.createApplicationContext(SearchModule.register(infra), { logger: ['error', 'warn'] });
  return {
    documents: app.get(DocumentService),
    qnas: app.get(QnaService),
    search: app.get(SearchService),
    lexical: app.get(LexicalIndex),
    vectors: app.get(KnowledgeVectors),
    close: () => app.close(),
  };
};

export type SearchContext = Awaited<ReturnType<typeof createSearchContext>>;
