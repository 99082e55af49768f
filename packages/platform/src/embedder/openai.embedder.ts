import { AppError } from '@palaver/contracts';
import OpenAI from 'openai';
import { upstreamError } from '../chat-model/openai-error';
import type { Embedder } from './embedder.port';

export interface OpenAiEmbedderOptions {
  baseURL: string;
  apiKey?: string | null;
  model: string;
  /** Length of every vector; checked on each response. */
  dimensions: number;
  /**
   * Send `dimensions` in the request (models with shortened embeddings, e.g. text-embedding-3-*).
   * Turn off for servers that reject the parameter; their vectors must then have `dimensions` already.
   */
  requestDimensions?: boolean;
  /** Inputs per request. */
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

/**
 * Embeddings from an OpenAI-compatible `/embeddings` endpoint, in batches of `batchSize` inputs.
 * The model is symmetric here: queries and documents are embedded alike. Failures are
 * AppError('BAD_GATEWAY') with details.service 'embeddings'.
 */
export class OpenAiEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly requestDimensions: boolean;
  private readonly batchSize: number;

  constructor(options: OpenAiEmbedderOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions < 1) {
      throw new Error('OpenAiEmbedder needs a positive integer number of dimensions');
    }
    this.client = new OpenAI({
      baseURL: options.baseURL,
      apiKey: options.apiKey || 'not-needed',
      timeout: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 2,
    });
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.requestDimensions = options.requestDimensions ?? true;
    this.batchSize = Math.max(1, options.batchSize ?? 64);
    this.name = `openai:${options.model}:${options.dimensions}`;
  }

  async embed(texts: string[], _kind: 'query' | 'document'): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.embedBatch(texts.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  private async embedBatch(batch: string[]): Promise<number[][]> {
    let data: Array<{ index: number; embedding: number[] }>;
    try {
      const response = await this.client.embeddings.create({
        model: this.model,
        // Empty strings are rejected by OpenAI; a single space embeds as "nothing".
        input: batch.map((t) => (t.length > 0 ? t : ' ')),
        encoding_format: 'float',
        ...(this.requestDimensions ? { dimensions: this.dimensions } : {}),
      });
      data = response.data;
    } catch (err) {
      throw upstreamError(err, 'embeddings', 'the embeddings endpoint');
    }
    if (data.length !== batch.length) {
      throw new AppError('BAD_GATEWAY', `the embeddings endpoint returned ${data.length} vectors for ${batch.length} inputs`, {
        service: 'embeddings',
      });
    }
    const ordered = [...data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    const wrong = ordered.find((v) => v.length !== this.dimensions);
    if (wrong) {
      throw new AppError(
        'BAD_GATEWAY',
        `the embeddings endpoint returned vectors of ${wrong.length} dimensions, ${this.dimensions} expected`,
        { service: 'embeddings' },
      );
    }
    return ordered;
  }
}
