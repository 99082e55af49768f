import { QdrantClient } from '@qdrant/js-client-rest';
import { describe } from 'vitest';
import { describeVectorIndexContract } from '../testing/vector-index.contract';
import { QdrantVectorIndex } from './qdrant.vector-index';

const url = process.env.QDRANT_URL;

describe.runIf(!!url)(`QdrantVectorIndex${url ? '' : ' (QDRANT_URL not set: skipped)'}`, () => {
  describeVectorIndexContract('QdrantVectorIndex', async () => ({
    vectors: new QdrantVectorIndex(url!, process.env.QDRANT_API_KEY),
    cleanup: async (collections) => {
      const client = new QdrantClient({ url: url!, apiKey: process.env.QDRANT_API_KEY, checkCompatibility: false });
      await Promise.all(collections.map((name) => client.deleteCollection(name)));
    },
  }));
});
