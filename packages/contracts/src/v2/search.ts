import { z } from 'zod';
import { MAX_KEY, MAX_NAME, MAX_URL, queryInt } from '../common';

export const ProductFields = z.object({
  productId: z.string().max(MAX_NAME).optional(),
  price: z.number().optional(),
  currency: z.string().max(20).optional(),
  availability: z.string().max(100).optional(),
  vendor: z.string().max(MAX_NAME).optional(),
  productType: z.string().max(MAX_NAME).optional(),
  imageUrl: z.string().max(MAX_URL).optional(),
});
export type ProductFields = z.infer<typeof ProductFields>;

export const SearchResult = z
  .object({
    score: z.number(),
    title: z.string(),
    content: z.string(),
    url: z.string(),
    path: z.string(),
  })
  .extend(ProductFields.shape);
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchQuery = z.object({
  q: z.string().min(1).max(500),
  size: queryInt(1, 50).default(10),
  apiKey: z.string().min(1).max(MAX_KEY),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchResponse = z.object({ results: z.array(SearchResult) });
export type SearchResponse = z.infer<typeof SearchResponse>;
