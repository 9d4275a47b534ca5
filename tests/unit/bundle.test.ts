// The bundles production code runs from: the HTTP workers' entry (the bundled JavaScript without tsx's
// flags, or the TypeScript source under tsx when bundling fails) and the entry scripts' server code.
// The cluster test (tests/integration/http-cluster.test.ts) runs the worker bundle; every test that
// starts a server process (tests/helpers/server-process.ts) runs the server's.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundleHttpWorker, chooseWorkerEntry, importServerEntry, SERVER_ENTRY_BUNDLE, WORKER_BUNDLE, withoutTsx, withSmallYoungGeneration } from "@/lib/server/bundle";
import * as serverEntrySource from "@/lib/server/server-entry";

describe("withoutTsx", () => {
  it("drops tsx's loader flags in every spelling and keeps every other flag", () => {
    const loader = "file:///app/node_modules/tsx/dist/loader.mjs";
    expect(withoutTsx(["--import", "tsx", "--cpu-prof", "--cpu-prof-dir=/tmp/profiles"])).toEqual(["--cpu-prof", "--cpu-prof-dir=/tmp/profiles"]);
    expect(withoutTsx(["--require", "/app/node_modules/tsx/dist/preflight.cjs", "--import", loader])).toEqual([]);
    expect(withoutTsx(["--import=tsx/esm", "-r", "tsx/cjs", "--max-old-space-size=256", "--loader", "tsx"])).toEqual(["--max-old-space-size=256"]);
    expect(withoutTsx(["--import", "./instrument.mjs", "--require=dotenv/config", "--enable-source-maps"])).toEqual([
      "--import", "./instrument.mjs", "--require=dotenv/config", "--enable-source-maps",
    ]);
  });
});

describe("chooseWorkerEntry", () => {
  it("runs the bundle without tsx's flags, with a small young generation", async () => {
    const entry = await chooseWorkerEntry(async () => "/bundle.mjs");
    expect(entry).toEqual({ exec: "/bundle.mjs", execArgv: [...withoutTsx(process.execArgv), "--max-semi-space-size=4"] });
  });

  it("falls back to the TypeScript source with the primary's own flags when bundling fails", async () => {
    const entry = await chooseWorkerEntry(() => Promise.reject(new Error("no esbuild")));
    expect(entry).toEqual({ exec: path.resolve("lib/server/http-worker.ts"), execArgv: [...process.execArgv, "--max-semi-space-size=4"] });
  });
});

describe("withSmallYoungGeneration", () => {
  it("caps the semi-space unless a size is already given", () => {
    expect(withSmallYoungGeneration(["--cpu-prof"])).toEqual(["--cpu-prof", "--max-semi-space-size=4"]);
    expect(withSmallYoungGeneration(["--max-semi-space-size=32"])).toEqual(["--max-semi-space-size=32"]);
  });
});

describe("bundleHttpWorker", () => {
  it("writes one ESM file under the project that imports the generated Prisma clients from where they are", async () => {
    expect(await bundleHttpWorker()).toBe(WORKER_BUNDLE);
    expect(WORKER_BUNDLE.startsWith(path.resolve("node_modules") + path.sep)).toBe(true);
    const code = fs.readFileSync(WORKER_BUNDLE, "utf8");
    for (const engine of ["sqlite", "postgres"]) expect(code).toContain(`from "${path.resolve("lib/db/generated", engine, "index.js")}"`);
    // Nothing of the generated clients inside, and no TypeScript left for tsx.
    expect(code).not.toContain("getPrismaClient");
    expect(code).not.toMatch(/from "[^"]*\.ts"/);
    expect(code).toContain('await import("next")');
  });
});

describe("importServerEntry", () => {
  it("imports the bundle, whose code is its own instance and has no name-keeping helper of tsx", async () => {
    const entry = await importServerEntry();
    expect(Object.keys(entry).sort()).toEqual(Object.keys(serverEntrySource).sort());
    expect(entry.startServer).not.toBe(serverEntrySource.startServer);
    const code = fs.readFileSync(SERVER_ENTRY_BUNDLE, "utf8");
    expect(code).not.toContain("__name(");
    expect(code).not.toMatch(/require\("[^"]*\.ts"\)/);
  });

  it("falls back to the TypeScript source when bundling fails", async () => {
    const entry = await importServerEntry(() => Promise.reject(new Error("read-only install")));
    expect(entry.startServer).toBe(serverEntrySource.startServer);
  });
});
