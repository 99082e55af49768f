import type { ComponentChildren } from 'preact';
import type { AsyncState } from '../lib/use-async';
import { ListStatus, Pager } from './ui';

/** The column headings' last cell when a table's rows end with their actions (named for screen readers only). */
export const ACTIONS = null;

/** A table with these column headings (`ACTIONS` for the unlabelled actions column) and `row` for each item. */
export const Table = <T,>({
  columns,
  items,
  row,
  testId,
}: {
  columns: ReadonlyArray<string | null>;
  items: readonly T[];
  row: (item: T) => ComponentChildren;
  testId?: string;
}) => (
  <div class="table-wrap">
    <table data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column ?? 'actions'} scope="col">
              {column ?? <span class="visually-hidden">Actions</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{items.map(row)}</tbody>
    </table>
  </div>
);

/**
 * A list as a table: its status (loading, error, `empty`), then, once it has rows, the `Table` of
 * its items, then the pager when `pager` is given.
 */
export const ListTable = <T,>({
  state,
  empty,
  columns,
  row,
  pager,
}: {
  state: Pick<AsyncState<{ data: readonly T[]; total?: number }>, 'data' | 'error' | 'loading' | 'reload'>;
  empty: ComponentChildren;
  columns: ReadonlyArray<string | null>;
  row: (item: T) => ComponentChildren;
  pager?: { limit: number; offset: number; onChange: (offset: number) => void };
}) => (
  <>
    <ListStatus state={state} empty={empty} />
    {state.data && state.data.data.length > 0 ? <Table columns={columns} items={state.data.data} row={row} /> : null}
    {state.data && pager ? <Pager total={state.data.total ?? state.data.data.length} {...pager} /> : null}
  </>
);
