import Link from "next/link";
import { buttonClass } from "./button";
import { cn } from "./cn";

/** One column: its header and how a row's cell is drawn. */
export type Column<R> = {
  key: string;
  header: React.ReactNode;
  cell: (row: R) => React.ReactNode;
  /** Right-aligned, tabular figures (amounts, counts), kept on one line. */
  numeric?: boolean;
  /** Kept on one line (dates, badges); other cells wrap long unbroken text. */
  nowrap?: boolean;
  className?: string;
};

/** Links to the first and the next page of a keyset-paged list; absent when the list fits one page. */
export type Pagination = { firstHref?: string; firstLabel?: string; nextHref?: string; nextLabel?: string };

type RowAttributes = { className?: string; id?: string } & Record<`data-${string}`, string | undefined>;

/**
 * Every list of the dashboard: a table that scrolls inside its card on narrow screens (the page
 * never does), its empty state, its pager, and a row-actions column pinned to the right edge so the
 * actions stay in view at every width (a row whose actions are null or false has none pinned).
 */
export function DataTable<R>({
  columns,
  rows,
  rowKey,
  rowAttributes,
  actions,
  actionsLabel = "Actions",
  empty,
  pagination,
}: {
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  rowAttributes?: (row: R) => RowAttributes;
  actions?: (row: R) => React.ReactNode;
  actionsLabel?: string;
  empty: React.ReactNode;
  pagination?: Pagination;
}) {
  return (
    <>
      {rows.length === 0 ? (
        empty
      ) : (
        <div className="overflow-x-auto" data-testid="data-table">
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    className={cn(headClass, "bg-slate-50/60", column.numeric && "text-right", column.className)}
                  >
                    {column.header}
                  </th>
                ))}
                {actions && (
                  <th scope="col" className={cn(headClass, stickyClass, "bg-slate-50")}>
                    <span className="sr-only">{actionsLabel}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const { className, ...attributes } = rowAttributes?.(row) ?? {};
                const rowActions = actions?.(row);
                return (
                  <tr key={rowKey(row)} className={cn("group hover:bg-slate-50", className)} {...attributes}>
                    {columns.map((column) => (
                      <td
                        key={column.key}
                        className={cn(
                          cellClass,
                          column.numeric && "text-right tabular-nums",
                          // A number or an amount broken over two lines misreads.
                          column.nowrap || column.numeric ? "whitespace-nowrap" : "wrap-anywhere",
                          column.className,
                        )}
                      >
                        {column.cell(row)}
                      </td>
                    ))}
                    {actions &&
                      // A row with no actions (a revoked key) keeps the column but pins no empty cell over its other cells.
                      (rowActions === null || rowActions === undefined || rowActions === false ? (
                        <td className={cellClass} />
                      ) : (
                        <td className={cn(cellClass, stickyClass, "bg-white group-hover:bg-slate-50")}>
                          <div className="flex justify-end gap-2">{rowActions}</div>
                        </td>
                      ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pagination && (pagination.firstHref || pagination.nextHref) && <Pager {...pagination} />}
    </>
  );
}

/** Without a background: the pinned actions column's must be opaque, the others' are not. */
const headClass = "border-b border-slate-200 px-4 py-2.5 text-xs font-medium tracking-wide text-slate-500 uppercase";
const cellClass = "min-w-24 border-b border-slate-100 px-4 py-3 align-middle text-slate-700";
const stickyClass = "sticky right-0 w-px whitespace-nowrap text-right shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.12)]";

/** A list's links to its newest page and to the next older one. */
export function Pager({ firstHref, firstLabel = "First page", nextHref, nextLabel = "Next page" }: Pagination) {
  return (
    <nav aria-label="Pages" className="flex justify-between px-5 py-3">
      {firstHref ? (
        <Link className={buttonClass("secondary", "sm")} href={firstHref}>
          {firstLabel}
        </Link>
      ) : (
        <span />
      )}
      {nextHref && (
        <Link className={buttonClass("secondary", "sm")} href={nextHref}>
          {nextLabel}
        </Link>
      )}
    </nav>
  );
}
