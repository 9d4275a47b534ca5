// The Debian packages the benchmarks run (Kannel, wrk), installed with apt-get when missing, as
// npm test installs the ones its suites need.
import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";
import { log } from "./report";

/** Installs `packages` unless every one of `files` is already there. */
export async function ensureDebianPackages(files: string[], packages: string[]): Promise<void> {
  if (files.every((file) => fs.existsSync(file))) return;
  log(`${packages.join(", ")} missing: apt-get install -y ${packages.join(" ")}`);
  await promisify(execFile)("apt-get", ["install", "-y", ...packages], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    maxBuffer: 64 * 1024 * 1024,
  });
}
