// Keyset paging for lists ordered newest first by a time column, then by id (both descending).

/** The rows after (older than) a page's last row, as a Prisma where clause. */
export function olderThan<Column extends "createdAt" | "receivedAt">(
  column: Column,
  last: { at: Date; id: string },
): { OR: [Record<Column, { lt: Date }>, Record<Column, Date> & { id: { lt: string } }] } {
  return {
    OR: [
      { [column]: { lt: last.at } } as Record<Column, { lt: Date }>,
      { [column]: last.at, id: { lt: last.id } } as Record<Column, Date> & { id: { lt: string } },
    ],
  };
}
