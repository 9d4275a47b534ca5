// What the HTML report and the docs' figures say about the runs they show: when, where, with what.
import type { BenchRun } from "./results";
import { groupByScenario } from "./spread";
import { engineName } from "./targets";

const distinct = <T>(values: T[]) => [...new Set(values)];
const minute = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** repetitions: the most results any one scenario has over the runs. */
export type RunsDescription = { when: string; machine: string; load: string; settings: string; repetitions: number };

export function describeRuns(runs: readonly BenchRun[]): RunsDescription {
  const starts = runs.map((run) => run.startedAt).sort();
  const when = starts.length === 1 ? minute(starts[0]) : `${minute(starts[0])} to ${minute(starts[starts.length - 1])}`;
  const machine = distinct(runs.map(({ machine: m }) => `${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, ${m.os}, Node ${m.node}`)).join("; ");
  const loads = runs.flatMap((run) => (run.machine.loadAverage ? [run.machine.loadAverage[0]] : []));
  const load = loads.length === 0 ? "unknown" : distinct(loads.map((value) => value.toFixed(1))).join(", ");
  const settings = distinct(
    runs.map(({ settings: s }) =>
      [
        `engines ${s.engines.map(engineName).join(" and ")}`,
        `${s.durationSeconds} s per HTTP run at ${s.connections} connections`,
        `${s.dispatchCount.toLocaleString("en")} messages dispatched`,
        `HTTP_PROCESSES=${s.processes}`,
      ].join(", "),
    ),
  ).join("; ");
  return {
    when,
    machine,
    load,
    settings,
    repetitions: Math.max(0, ...Object.values(groupByScenario(runs)).map((results) => results.length)),
  };
}
