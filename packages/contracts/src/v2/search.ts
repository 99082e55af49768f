import { z } from 'zod';
import { queryInt } from '../common';

export const ProductFields = z.object({
  productId: z.string().optional(),
  price: z.number().optional(),
  currency: z.string().optional(),
  availability: z.string().optional(),
  vendor: z.string().optional(),
  productType: z.string().optional(),
  imageUrl: z.string().optional(),
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
  apiKey: z.string().min(1),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchResponse = z.object({ results: z.array(SearchResult) });
export type SearchResponse = z.infer<typeof SearchResponse>;
