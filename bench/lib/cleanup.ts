// What must not outlive an interrupted run (servers, Kannel boxes, PostgreSQL databases): each is
// registered while it exists, and Ctrl-C / SIGTERM runs the registered cleanups before exiting.
const cleanups = new Set<() => Promise<void>>();

/** Registers cleanup until the returned function runs it (once) and unregisters it. */
export function whileRunning(cleanup: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => {
    cleanups.delete(once);
    done ??= cleanup();
    return done;
  };
  cleanups.add(once);
  return once;
}

export function cleanUpOnSignals(): void {
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n${signal}: stopping servers and dropping databases\n`);
    void (async () => {
      // Newest first: a server stops before its database is dropped.
      for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => undefined);
      process.exit(130);
    })();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}
