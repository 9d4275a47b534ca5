import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cpuSeconds, parentPid, serverCpuSeconds } from "@/bench/lib/memory";

/** Polls `check` every 50 ms until it holds; false when it never did within `ms`. */
async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("the benchmark's CPU accounting", () => {
  it("counts a server's children after they have exited, as PostgreSQL's backends do", async () => {
    // A shell that runs a child using 0.3 s of CPU, reaps it, then idles: like a postmaster after a backend's exit.
    const busy = `${process.execPath} -e "const t = process.cpuUsage(); while (process.cpuUsage(t).user < 300000);"`;
    const server = spawn("sh", ["-c", `${busy}; sleep 30`], { stdio: "ignore" });
    try {
      expect(parentPid(server.pid!)).toBe(process.pid);
      // Once the child is reaped, the live tree holds the shell alone; the server's total keeps the child's time.
      const reaped = await eventually(() => serverCpuSeconds(server.pid!) >= 0.25 && cpuSeconds(server.pid!) < 0.1, 20_000);
      expect(reaped).toBe(true);
    } finally {
      server.kill();
    }
  });

  it("knows no parent of a process that does not exist", () => {
    expect(parentPid(2 ** 22 + 1)).toBeNull();
  });
});
