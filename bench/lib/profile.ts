// `--profile`: the server under test runs with node --cpu-prof; after it stops, its profile's
// heaviest functions (self time) are printed, and the .cpuprofile stays for Chrome DevTools.
import fs from "node:fs";
import path from "node:path";
import { log, RESULTS_DIR } from "./report";

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

export function profileDirectory(label: string): string {
  const directory = path.join(
    RESULTS_DIR,
    "profiles",
    `${new Date().toISOString().replace(/[:.]/g, "-")}-${label.replace(/[^a-z0-9]+/gi, "-")}`,
  );
  fs.mkdirSync(directory, { recursive: true });
  return directory;
}

function location(url: string): string {
  return url
    .replace(/^file:\/\//, "")
    .replace(/^.*node_modules\//, "")
    .replace(`${process.cwd()}/`, "");
}

/** Self time per function and per file of the largest profile in the directory, as text lines. */
export function summariseProfile(directory: string, top = 20): string[] {
  const files = fs.readdirSync(directory).filter((file) => file.endsWith(".cpuprofile"));
  if (files.length === 0) return [`no profile in ${directory}`];
  const largest = files.map((file) => path.join(directory, file)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  const profile = JSON.parse(fs.readFileSync(largest, "utf8")) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    total += delta;
    const file = location(url) || functionName;
    byFunction.set(
      `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`,
      (byFunction.get(`${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`) ?? 0) + delta,
    );
    byFile.set(file, (byFile.get(file) ?? 0) + delta);
  });
  const lines = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => `${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`);
  return [`profile ${largest}`, "self time by function:", ...lines(byFunction), "self time by file:", ...lines(byFile)];
}

export function logProfile(directory: string): void {
  for (const line of summariseProfile(directory)) log(line);
}
