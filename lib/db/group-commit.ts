// Group commit: calls made while a commit is being prepared or is in flight are gathered and
// committed together, one transaction for many callers. Each caller gets its own result (or error)
// only after that transaction has committed. Reads use the same gathering (one statement for many
// callers, lib/messages/get-message.ts).

type Pending<Input, Output> = { input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void };

/**
 * `commitBatch` receives the inputs of one batch and returns, per input in the same order, its
 * output or the Error refusing it alone; if it throws, every caller of the batch gets that error.
 * `concurrentBatches` (read at each start) is how many batches may be in flight at once: 1 gathers
 * everything behind the one in flight; more let a batch's round trips overlap another's.
 */
export function createGroupCommit<Input, Output>(
  commitBatch: (inputs: Input[]) => Promise<Array<Output | Error>>,
  maxBatchSize: number,
  concurrentBatches: () => number = () => 1,
): (input: Input) => Promise<Output> {
  const queue: Pending<Input, Output>[] = [];
  let inFlight = 0;
  let startScheduled = false;

  const canStart = () => !startScheduled && queue.length > 0 && inFlight < concurrentBatches();

  function scheduleStart(): void {
    if (!canStart()) return;
    startScheduled = true;
    // One turn of the event loop lets the other requests already read off the sockets join.
    setImmediate(startBatch);
  }

  function startBatch(): void {
    startScheduled = false;
    const batch = queue.splice(0, maxBatchSize);
    inFlight++;
    void commit(batch).finally(() => {
      inFlight--;
      // What queued while this batch was in flight goes next, at once.
      if (canStart()) startBatch();
    });
    scheduleStart();
  }

  async function commit(batch: Pending<Input, Output>[]): Promise<void> {
    try {
      const results = await commitBatch(batch.map((pending) => pending.input));
      batch.forEach((pending, index) => {
        const result = results[index];
        if (result instanceof Error) pending.reject(result);
        else pending.resolve(result);
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }

  return (input) =>
    new Promise<Output>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      scheduleStart();
    });
}
