import { describe, expect, it } from "vitest";
import { createGroupCommit } from "@/lib/db/group-commit";

describe("createGroupCommit", () => {
  it("commits calls made together as one batch, answers each its own result, refuses only the refused", async () => {
    const batches: number[][] = [];
    const commit = createGroupCommit<number, string>(async (inputs) => {
      batches.push(inputs);
      return inputs.map((input) => (input % 3 === 0 ? new Error(`refused ${input}`) : `ok ${input}`));
    }, 100);
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((input) => commit(input)));
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6]]);
    expect(results.map((result) => (result.status === "fulfilled" ? result.value : (result.reason as Error).message))).toEqual([
      "ok 1",
      "ok 2",
      "refused 3",
      "ok 4",
      "ok 5",
      "refused 6",
    ]);
  });

  it("gathers calls made while a batch is in flight into the next one, at most maxBatchSize each", async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const firstInFlight = new Promise<void>((resolve) => (release = resolve));
    const commit = createGroupCommit<number, number>(async (inputs) => {
      batches.push(inputs);
      if (batches.length === 1) await firstInFlight;
      return inputs;
    }, 3);
    const first = commit(0);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [1, 2, 3, 4, 5].map((input) => commit(input));
    release();
    expect(await Promise.all([first, ...later])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(batches).toEqual([[0], [1, 2, 3], [4, 5]]);
  });

  it("starts another batch while one is in flight when more may run at once, never more than that", async () => {
    const batches: number[][] = [];
    const releases: Array<() => void> = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const commit = createGroupCommit<number, number>(
      async (inputs) => {
        batches.push(inputs);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight--;
        return inputs;
      },
      2,
      () => 2,
    );
    const calls = [0, 1, 2, 3, 4, 5].map((input) => commit(input));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([
      [0, 1],
      [2, 3],
    ]);
    releases.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    releases.splice(0).forEach((release) => release());
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(mostInFlight).toBe(2);
  });

  it("rejects every caller of a batch whose commit throws, and keeps serving later calls", async () => {
    let fail = true;
    const commit = createGroupCommit<number, number>(async (inputs) => {
      if (fail) throw new Error("database down");
      return inputs;
    }, 10);
    const results = await Promise.allSettled([commit(1), commit(2)]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await commit(3)).toBe(3);
  });
});
