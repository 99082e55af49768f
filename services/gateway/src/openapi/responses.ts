import { z } from 'zod';
import type { ResponseDoc } from './api-docs';

/**
 * A route's one documented success, by status: the status a handler's result is sent with
 * (see Routes). Routes with several successes spell out their `responses`.
 */
export const ok = (description: string, schema: z.ZodType): Record<200, ResponseDoc> => ({ 200: { description, schema } });
export const created = (description: string, schema: z.ZodType): Record<201, ResponseDoc> => ({ 201: { description, schema } });
export const accepted = (description: string, schema: z.ZodType): Record<202, ResponseDoc> => ({ 202: { description, schema } });
export const noContent = (description: string): Record<204, ResponseDoc> => ({ 204: { description } });

/** `{ data: [...] }`: the admin API's unpaged lists. */
export const dataList = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
