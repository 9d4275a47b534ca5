// A dashboard download: CSV lines streamed to the browser as they are produced (constant memory for
// any number of rows), named tumira-<what>-<day>.csv.

export function csvDownload(what: string, lines: AsyncGenerator<string> | Iterable<string>): Response {
  const iterator =
    Symbol.asyncIterator in lines
      ? lines
      : (async function* () {
          yield* lines;
        })();
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="tumira-${what}-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
}
