// A built process reads LOG_LEVEL from a .env file in its working directory before it logs its
// first line, as it reads every other variable from there.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DIST_DIR } from "@/scripts/build-server";
import { waitFor } from "../helpers/delivery";

const children: ReturnType<typeof spawn>[] = [];
const workDirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
  for (const workDir of workDirs.splice(0)) fs.rmSync(workDir, { recursive: true, force: true });
});

/** `npm run smsc`'s built entry in a directory holding only `dotEnv` as its .env, with NODE_ENV and LOG_LEVEL unset. */
function startSimulatorIn(dotEnv: string): () => string {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-dotenv-"));
  workDirs.push(workDir);
  fs.writeFileSync(path.join(workDir, ".env"), dotEnv);
  const env = { ...process.env, NODE_ENV: undefined, LOG_LEVEL: undefined, DATA_DIR: workDir } as unknown as NodeJS.ProcessEnv;
  const child = spawn(process.execPath, [path.join(DIST_DIR, "smsc.js")], { cwd: workDir, env, stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return () => output;
}

describe(".env", () => {
  it("sets the log level of a process's first lines", async () => {
    const quiet = startSimulatorIn("LOG_LEVEL=warn\nSMSC_SIMULATOR_PORT=0\n");
    const chatty = startSimulatorIn("LOG_LEVEL=info\nSMSC_SIMULATOR_PORT=0\n");
    // The simulator logs "SMSC simulator listening" (info) before it prints its banner.
    await waitFor(async () => quiet().includes("SMSC simulator on port") && chatty().includes("SMSC simulator on port"), "the banners");
    expect(chatty()).toContain('"msg":"SMSC simulator listening"');
    expect(quiet()).not.toContain('"msg":"SMSC simulator listening"');
  });
});
