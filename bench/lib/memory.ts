import fs from "node:fs";

/**
 * Peak resident set size (VmHWM) of a live process and all its descendants so far, summed, in MB:
 * a cluster server's primary and workers. Null once the process has
 * exited. The sum of each process's own peak is an upper bound of the tree's peak at any instant.
 */
export function peakRssMb(pid: number): number | null {
  const own = processPeakRssMb(pid);
  if (own === null) return null;
  return childPids(pid).reduce((sum, child) => sum + (peakRssMb(child) ?? 0), own);
}

/**
 * Reading /proc/<pid>/smaps_rollup walks the process's page tables, which takes the kernel enough CPU
 * to disturb the machine under test if done as often as VmRSS: the PSS, the secondary figure, is
 * sampled once a second.
 */
const PSS_INTERVAL_MS = 1000;

/**
 * Samples a live process tree's resident set, summed, every intervalMs until stopped; peakMb() is the
 * largest sum seen, the tree's peak at one moment (what the tree held, give or take a sample), where
 * peakRssMb adds each process's own peak, from whatever moment (a cluster primary's start-up, say).
 * peakPssMb() is the same for the proportional set size: pages shared between the processes (the
 * node binary and its libraries in each) counted once instead of once per process, sampled every PSS_INTERVAL_MS.
 */
export function sampleTreeRss(
  pid: number,
  intervalMs = 100,
): { peakMb: () => number | null; peakPssMb: () => number | null; stop: () => void } {
  let peak: number | null = null;
  let peakPss: number | null = null;
  const sampleRss = () => {
    const mb = treeSumMb(pid, (process) => processStatusMb(process, "VmRSS"));
    if (mb !== null) peak = Math.max(peak ?? 0, mb);
  };
  const samplePss = () => {
    const pss = treeSumMb(pid, processPssMb);
    if (pss !== null) peakPss = Math.max(peakPss ?? 0, pss);
  };
  sampleRss();
  samplePss();
  const timers = [setInterval(sampleRss, intervalMs).unref(), setInterval(samplePss, PSS_INTERVAL_MS).unref()];
  return {
    peakMb: () => {
      sampleRss();
      return peak;
    },
    peakPssMb: () => {
      samplePss();
      return peakPss;
    },
    stop: () => timers.forEach(clearInterval),
  };
}

function treeSumMb(pid: number, sizeMb: (pid: number) => number | null): number | null {
  const own = sizeMb(pid);
  if (own === null) return null;
  return childPids(pid).reduce((sum, child) => sum + (treeSumMb(child, sizeMb) ?? 0), own);
}

function processPssMb(pid: number): number | null {
  try {
    const match = /^Pss:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) used so far by a live process and all its descendants, in seconds. */
export function cpuSeconds(pid: number): number {
  return treeCpuSeconds(pid, { reaped: false });
}

/**
 * CPU time used so far by a server that forks a process per connection (PostgreSQL's postmaster):
 * its own, its children that have exited (which it has reaped), and its live descendants.
 */
export function serverCpuSeconds(pid: number): number {
  return treeCpuSeconds(pid, { reaped: true });
}

/** The parent's pid of a live process, or null. */
export function parentPid(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : null;
}

/** `reaped`: the root's exited children count too (cutime and cstime), read with its own time. */
function treeCpuSeconds(pid: number, { reaped }: { reaped: boolean }): number {
  const fields = statFields(pid);
  const ticks = fields ? Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0) : 0;
  // Linux reports CPU time in clock ticks, 100 a second on every architecture Node runs on.
  return ticks / 100 + childPids(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);
}

/**
 * The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold
 * spaces): state, ppid, … utime is the 12th, stime the 13th, cutime and cstime (children reaped) the
 * 14th and 15th. Null once the process has exited.
 */
function statFields(pid: number): string[] | null {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  } catch {
    return null;
  }
}

function processPeakRssMb(pid: number): number | null {
  return processStatusMb(pid, "VmHWM");
}

/** A size field of /proc/<pid>/status (VmRSS, VmHWM) in MB; null once the process has exited. */
function processStatusMb(pid: number, field: "VmRSS" | "VmHWM"): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Children of every thread of the process (Linux lists them per thread). */
function childPids(pid: number): number[] {
  try {
    return fs.readdirSync(`/proc/${pid}/task`).flatMap((thread) => {
      const text = fs.readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8").trim();
      return text ? text.split(/\s+/).map(Number) : [];
    });
  } catch {
    return [];
  }
}
