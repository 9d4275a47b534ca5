// npm test's first step: missing Debian packages are installed where the user may, and otherwise the
// run stops at once with the exact command to run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** A PATH whose `id` answers as an ordinary user would, so the script may not install. */
function pathOfAnOrdinaryUser(): string {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-bin-"));
  fs.writeFileSync(path.join(bin, "id"), "#!/bin/sh\necho 1000\n", { mode: 0o755 });
  return `${bin}:${process.env.PATH}`;
}

describe("scripts/ensure-system-packages.sh", () => {
  it("stops with the exact install command when a package is missing and it may not install", () => {
    const run = spawnSync("bash", ["scripts/ensure-system-packages.sh"], {
      encoding: "utf8",
      env: { ...process.env, PATH: pathOfAnOrdinaryUser(), CHROMIUM_PATH: "/nonexistent/chromium" },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/apt-get install -y --no-install-recommends chromium/);
  });

  it("does nothing when every package is there", () => {
    const run = spawnSync("bash", ["scripts/ensure-system-packages.sh"], {
      encoding: "utf8",
      env: { ...process.env, PATH: pathOfAnOrdinaryUser(), CHROMIUM_PATH: process.execPath, KANNEL_BEARERBOX: process.execPath },
    });
    expect(run.status).toBe(0);
    expect(run.stdout + run.stderr).toBe("");
  });
});
