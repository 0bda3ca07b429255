// Tables of the dashboard's listings: columns declared once, a page of URLs with its pager.
import type { ComponentChildren } from 'preact';
import { formatLastModified } from './api.ts';
import { ErrorMessage, Pager } from './ui.tsx';

/** One column of a table: its header and what each row shows in it. */
export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  class?: string;
  /** e.g. `data-testid`, for tests that read one cell */
  testId?: string;
}

/** A table of rows, one column per `columns` entry. */
export function Table<T>({ rows, columns, rowKey }: { rows: T[]; columns: Column<T>[]; rowKey: (row: T) => string }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column.header} class={column.class}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} class={column.class} data-testid={column.testId}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A page of a URL listing (a site's mapped URLs, a discovery's URLs): count, table and pager. */
export function UrlTable<T>({
  load,
  columns,
  rowKey,
  label,
  onPage,
}: {
  load: { data: { urls: T[]; total: number; page: number; totalPages: number } | null; error: unknown; loading: boolean };
  columns: Column<T>[];
  rowKey: (row: T) => string;
  label: string;
  onPage: (page: number) => void;
}) {
  const { data } = load;
  return (
    <>
      <ErrorMessage error={load.error} />
      {data ? (
        <>
          <p class="muted">{data.total} URLs</p>
          {data.urls.length ? <Table rows={data.urls} columns={columns} rowKey={rowKey} /> : null}
          <Pager page={data.page} totalPages={data.totalPages} onPage={onPage} label={label} disabled={load.loading} />
        </>
      ) : load.loading ? (
        <p>Loading…</p>
      ) : null}
    </>
  );
}

/** The "Last modified" column: a sitemap's day as that day, or a dash. */
export const lastModifiedColumn = <T extends { lastModified: string | null }>(): Column<T> => ({
  header: 'Last modified',
  cell: (row) => (row.lastModified ? <time dateTime={row.lastModified}>{formatLastModified(row.lastModified)}</time> : '—'),
});
