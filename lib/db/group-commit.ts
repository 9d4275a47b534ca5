// Group commit: calls made while a commit is being prepared or is in flight are gathered and
// committed together, one transaction for many callers. Each caller gets its own result (or error)
// only after that transaction has committed.

type Pending<Input, Output> = { input: Input; resolve: (output: Output) => void; reject: (error: unknown) => void };

/**
 * `commitBatch` receives the inputs of one batch and returns, per input in the same order, its
 * output or the Error refusing it alone; if it throws, every caller of the batch gets that error.
 */
export function createGroupCommit<Input, Output>(
  commitBatch: (inputs: Input[]) => Promise<Array<Output | Error>>,
  maxBatchSize: number,
): (input: Input) => Promise<Output> {
  let queue: Pending<Input, Output>[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatchSize);
      queue = queue.slice(maxBatchSize);
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
    draining = false;
  }

  return (input) =>
    new Promise<Output>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      if (draining) return;
      draining = true;
      // One turn of the event loop lets the other requests already read off the sockets join.
      setImmediate(() => void drain());
    });
}
