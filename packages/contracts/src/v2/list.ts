import { z } from 'zod';

export const pagedList = <T extends z.ZodType>(item: T) =>
  z.object({
    object: z.literal('list'),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    data: z.array(item),
  });

export const plainList = <T extends z.ZodType>(item: T) => z.object({ object: z.literal('list'), data: z.array(item) });
