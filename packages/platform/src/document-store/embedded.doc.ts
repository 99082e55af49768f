import type { WithId } from './document-store.port';

/** A document as the embedded store holds it: its JSON form. */
export type Doc = WithId & Record<string, unknown>;
/** One record of a collection's log. */
export type LogOp = { op: 'put'; doc: Doc } | { op: 'del'; id: string };
/** One document's change inside a write: before null = insert, after null = delete. */
export type Change = { before: Doc | null; after: Doc | null };
