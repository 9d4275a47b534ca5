// Which file the cluster primary forks its HTTP workers on, and with which node flags.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chooseWorkerEntry, withSmallYoungGeneration } from "@/lib/server/http-workers";

describe("chooseWorkerEntry", () => {
  it("forks the built worker beside the built server, with the primary's flags and small semi-spaces", () => {
    expect(chooseWorkerEntry("/app/dist/server.js", ["--cpu-prof"])).toEqual({
      exec: "/app/dist/http-worker.js",
      execArgv: ["--cpu-prof", "--max-semi-space-size=4"],
    });
  });

  it("forks the TypeScript worker beside the source when the primary runs the sources", () => {
    expect(chooseWorkerEntry(path.resolve("lib/server/http-workers.ts"), ["--import", "tsx"])).toEqual({
      exec: path.resolve("lib/server/http-worker.ts"),
      execArgv: ["--import", "tsx", "--max-semi-space-size=4"],
    });
  });
});

describe("withSmallYoungGeneration", () => {
  it("caps the semi-space unless a size is already given", () => {
    expect(withSmallYoungGeneration(["--cpu-prof"])).toEqual(["--cpu-prof", "--max-semi-space-size=4"]);
    expect(withSmallYoungGeneration(["--max-semi-space-size=32"])).toEqual(["--max-semi-space-size=32"]);
  });
});
