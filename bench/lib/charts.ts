// The charts of the report and of docs/performance.md: each scenario's figures against Kannel or
// against the target, one bar per competitor, spread over the runs given.
import type { BenchRun } from "./results";
import { groupByScenario, spreadOf, spreadsByKey, type ScenarioRuns } from "./spread";
import { chartColors, type Bar, type Chart } from "./svg-chart";
import { benchTargets, engineName, megabytes, microseconds, milliseconds, perSecond, seconds, times } from "./targets";

const engineColor = (engine: string, light = false) =>
  engine === "postgres"
    ? light
      ? chartColors.postgresLight
      : chartColors.postgres
    : engine === "sqlite"
      ? light
        ? chartColors.sqliteLight
        : chartColors.sqlite
      : chartColors.kannel;
const engineSuffix = (engine: string) => (engine === "-" ? "" : ` (${engineName(engine)})`);
const recipients = (count: number) => count.toLocaleString("en");

type Described = { key: string; value: number | null; color: string };

function bars<Row>(runs: readonly { data: { rows: Row[] } }[], describe: (row: Row, rowsOfRun: Row[]) => Described | undefined): Bar[] {
  return spreadsByKey(runs, describe).map(({ key, color, spread }) => ({ label: key, color, spread }));
}

/**
 * A bar per gateway of its CPU, each followed, where the run counted it apart, by its database
 * server's CPU (PostgreSQL runs outside the gateway; SQLite inside it, in the gateway's bar).
 */
function cpuBars<Row extends { engine: string }>(
  runs: readonly { data: { rows: Row[] } }[],
  gateway: (row: Row) => Described,
  databaseCpu: (row: Row) => number | null | undefined,
): Bar[] {
  const databaseLabel = (label: string) => `${label}: PostgreSQL server`;
  const databaseBars = bars(runs, (row: Row) => {
    const value = databaseCpu(row);
    return value == null ? undefined : { key: databaseLabel(gateway(row).key), value, color: engineColor(row.engine, true) };
  });
  return bars(runs, gateway).flatMap((bar) => [bar, ...databaseBars.filter((entry) => entry.label === databaseLabel(bar.label))]);
}

function median(values: (number | null | undefined)[]): number | undefined {
  return spreadOf(values)?.median;
}

function singleSendCharts(single: ScenarioRuns["single"], connections: string): Chart[] {
  if (single.length === 0) return [];
  type Row = (typeof single)[number]["data"]["rows"][number];
  const label = (row: Row) =>
    row.kind === "kannel"
      ? "Kannel sendsms"
      : `${row.kind === "send" ? "POST /api/v1/sms" : "GET /api/ping (ceiling)"}${engineSuffix(row.engine)}`;
  const describe = (value: (row: Row) => number | null) => (row: Row) => ({
    key: label(row),
    value: value(row),
    color: engineColor(row.engine, row.kind === "ceiling"),
  });
  const kannel = (value: (row: Row) => number | null) =>
    median(single.flatMap((run) => run.data.rows.filter((row) => row.kind === "kannel").map(value)));
  const kannelRate = kannel((row) => row.requestsPerSecond);
  const kannelCpu = kannel((row) => row.cpuMicrosPerRequest);
  return [
    {
      id: "single-rate",
      title: "Single send: requests answered per second",
      description: `POST /api/v1/sms at ${connections} connections, 202 for each, against Kannel's sendsms into its fake SMSC. GET /api/ping on the same server is the HTTP path's own ceiling. Target: at least Kannel's rate (dashed line).`,
      format: perSecond,
      bars: bars(
        single,
        describe((row) => row.requestsPerSecond),
      ),
      reference: kannelRate === undefined ? undefined : { value: kannelRate, label: `Kannel ${perSecond(kannelRate)}` },
    },
    {
      id: "single-p99",
      title: "Single send: p99 latency",
      description: `99th percentile of the response time at ${connections} connections. Target: ${benchTargets.singleSendP99Ms} ms for POST /api/v1/sms.`,
      format: milliseconds,
      bars: bars(
        single,
        describe((row) => row.p99Ms),
      ),
      reference: { value: benchTargets.singleSendP99Ms, label: `target ${benchTargets.singleSendP99Ms} ms` },
    },
    {
      id: "single-cpu",
      title: "Single send: CPU per request",
      description:
        "The gateway's own CPU time (every process of it) per request over the measured run: a figure a busy machine skews less than the rates. On PostgreSQL the database server's CPU over the same run follows as a bar of its own: that engine's cost is the sum of the two. Lower is better; the dashed line is Kannel's.",
      format: microseconds,
      bars: cpuBars(
        single,
        describe((row) => row.cpuMicrosPerRequest),
        (row) => row.databaseCpuMicrosPerRequest,
      ),
      reference: kannelCpu === undefined ? undefined : { value: kannelCpu, label: `Kannel ${microseconds(kannelCpu)}` },
    },
  ];
}

function bulkCharts(bulk: ScenarioRuns["bulk"]): Chart[] {
  if (bulk.length === 0) return [];
  type Row = (typeof bulk)[number]["data"]["rows"][number];
  const secondsBars = bars(bulk, (row: Row) => ({
    key: `${recipients(row.recipients)}${engineSuffix(row.engine)}`,
    value: row.ok ? row.seconds : null,
    color: engineColor(row.engine),
  }));
  const rawBars = bars(bulk, (row: Row) => ({
    key: `raw insert, ${recipients(row.recipients)}${engineSuffix(row.engine)}`,
    value: row.ok ? row.rawSeconds : null,
    color: engineColor(row.engine, true),
  }));
  // Each send beside the raw insert of the very same rows.
  const interleaved = secondsBars.flatMap((bar, index) => [bar, rawBars[index]].filter((entry): entry is Bar => entry !== undefined));
  return [
    {
      id: "bulk-seconds",
      title: "Bulk send: seconds until the 202 response",
      description: `One POST /api/v1/sms/bulk per size, timed until the whole 202 response is read, beside the same rows inserted with the bare driver in one transaction (the engine's physical limit). Target: ${recipients(benchTargets.bulkRecipients)} recipients in ${benchTargets.bulkSqliteSeconds} s on SQLite.`,
      format: seconds,
      bars: interleaved,
      reference: {
        value: benchTargets.bulkSqliteSeconds,
        label: `target ${benchTargets.bulkSqliteSeconds} s (${recipients(benchTargets.bulkRecipients)}, SQLite)`,
      },
    },
    {
      id: "bulk-times-raw",
      title: "Bulk send: time against the raw insert",
      description: `The send's time divided by the raw insert's, per run. Target: at most ${benchTargets.bulkTimesRaw} ×.`,
      format: times,
      bars: bars(bulk, (row: Row) => ({
        key: `${recipients(row.recipients)}${engineSuffix(row.engine)}`,
        value: row.ok && row.seconds !== null && row.rawSeconds ? row.seconds / row.rawSeconds : null,
        color: engineColor(row.engine),
      })),
      reference: { value: benchTargets.bulkTimesRaw, label: `target ${benchTargets.bulkTimesRaw} ×` },
    },
  ];
}

function dispatchCharts(dispatch: ScenarioRuns["dispatch"], count: string): Chart[] {
  if (dispatch.length === 0) return [];
  type Row = (typeof dispatch)[number]["data"]["rows"][number];
  const label = (row: Row) => `${row.competitor}${engineSuffix(row.engine)}`;
  // Kannel's first row is its SMPP run to the same simulator: the like-for-like competitor.
  const firstKannel = (value: (row: Row) => number | null) =>
    median(dispatch.map((run) => run.data.rows.find((row) => row.gateway === "kannel")).map((row) => (row ? value(row) : null)));
  const kannelRate = firstKannel((row) => row.messagesPerSecond);
  const kannelCpu = firstKannel((row) => row.cpuMicrosecondsPerMessage);
  return [
    {
      id: "dispatch-rate",
      title: "Dispatch: messages to the SMSC per second",
      description: `${count} queued messages submitted over SMPP to the SMSC simulator, from the first out to the last: Tumira's dispatcher against Kannel's bearerbox (without and with delivery receipts asked for), and Kannel into its own fake SMSC. Target: at least Kannel's SMPP rate (dashed line).`,
      format: perSecond,
      bars: bars(dispatch, (row: Row) => ({ key: label(row), value: row.messagesPerSecond, color: engineColor(row.engine) })),
      reference: kannelRate === undefined ? undefined : { value: kannelRate, label: `Kannel over SMPP ${perSecond(kannelRate)}` },
    },
    {
      id: "dispatch-cpu",
      title: "Dispatch: CPU per message",
      description:
        "The gateway's own CPU time per message over the same interval (not the SMSC's). On PostgreSQL the database server's CPU over that interval follows as a bar of its own. Lower is better; the dashed line is Kannel's over SMPP.",
      format: microseconds,
      bars: cpuBars(
        dispatch,
        (row: Row) => ({ key: label(row), value: row.cpuMicrosecondsPerMessage, color: engineColor(row.engine) }),
        (row) => row.databaseCpuMicrosecondsPerMessage,
      ),
      reference: kannelCpu === undefined ? undefined : { value: kannelCpu, label: `Kannel over SMPP ${microseconds(kannelCpu)}` },
    },
  ];
}

function readCharts(read: ScenarioRuns["read"], connections: string): Chart[] {
  if (read.length === 0) return [];
  type Row = (typeof read)[number]["data"]["rows"][number];
  const describe = (value: (row: Row) => number | null) => (row: Row) => ({
    key: `${row.kind === "read" ? "GET /api/v1/sms/{id}" : "GET /api/ping (ceiling)"}${engineSuffix(row.engine)}`,
    value: value(row),
    color: engineColor(row.engine, row.kind === "ceiling"),
  });
  return [
    {
      id: "read-rate",
      title: "Read: requests answered per second",
      description: `GET /api/v1/sms/{id} at ${connections} connections, a random existing message per request, beside GET /api/ping on the same server. Target: ${perSecond(benchTargets.readRequestsPerSecond)}.`,
      format: perSecond,
      bars: bars(
        read,
        describe((row) => row.requestsPerSecond),
      ),
      reference: { value: benchTargets.readRequestsPerSecond, label: `target ${perSecond(benchTargets.readRequestsPerSecond)}` },
    },
    {
      id: "read-p99",
      title: "Read: p99 latency",
      description: `99th percentile of the response time at ${connections} connections. Target: ${benchTargets.readP99Ms} ms.`,
      format: milliseconds,
      bars: bars(
        read,
        describe((row) => row.p99Ms),
      ),
      reference: { value: benchTargets.readP99Ms, label: `target ${benchTargets.readP99Ms} ms` },
    },
  ];
}

function deliveryControlCharts(control: ScenarioRuns["delivery-control"]): Chart[] {
  if (control.length === 0) return [];
  type Row = (typeof control)[number]["data"]["rows"][number];
  const p99Of = (kind: Row["kind"]) => (row: Row) =>
    row.kind !== kind
      ? undefined
      : {
          key: row.gateway === "kannel" ? "Kannel (sendsms priority=3)" : `Tumira${engineSuffix(row.engine)}`,
          value: row.p99Seconds,
          color: engineColor(row.engine),
        };
  return [
    {
      id: "priority-p99",
      title: "Priority past a backlog: p99 time to the carrier",
      description: `20,000 normal messages queued for one carrier paced at 100 messages/s, then 100 high-priority sends over 10 s: the 99th percentile of the time from each one's 202 to the carrier's answer. Kannel with its sendsms priority, bound to the same simulator at the same pace; no bar when its p99 was not reached within a minute. Target: ${benchTargets.priorityP99Seconds} s.`,
      format: seconds,
      bars: bars(control, p99Of("priority")),
      reference: { value: benchTargets.priorityP99Seconds, label: `target ${benchTargets.priorityP99Seconds} s` },
    },
    {
      id: "fairness-p99",
      title: "Fairness past another account's backlog: p99 time to the carrier",
      description: `Account A's 20,000 messages queued for one carrier paced at 100 messages/s, then account B's 200 sends over 20 s: the 99th percentile of B's time from 202 to the carrier's answer. Kannel has no means to keep one sender from starving another. Target: ${benchTargets.fairnessP99Seconds} s.`,
      format: seconds,
      bars: bars(control, p99Of("fairness")),
      reference: { value: benchTargets.fairnessP99Seconds, label: `target ${benchTargets.fairnessP99Seconds} s` },
    },
  ];
}

function memoryChart(scenarios: ScenarioRuns): Chart[] {
  const memoryBars: Bar[] = [
    ...bars(scenarios.single, (row) =>
      row.kind === "ceiling"
        ? undefined
        : {
            key: row.kind === "kannel" ? "Kannel, single send" : `single send${engineSuffix(row.engine)}`,
            value: row.peakRssMb,
            color: engineColor(row.engine),
          },
    ),
    ...bars(
      scenarios.bulk.map((run) => ({
        data: { rows: Object.entries(run.data.peakRssMb).map(([engine, memory]) => ({ engine, ...memory })) },
      })),
      (row) => ({ key: `bulk send${engineSuffix(row.engine)}`, value: row.peakRssMb, color: engineColor(row.engine) }),
    ),
    ...bars(scenarios.dispatch, (row) => ({
      key: `dispatch, ${row.gateway === "kannel" ? row.competitor : `Tumira${engineSuffix(row.engine)}`}`,
      value: row.peakRssMb,
      color: engineColor(row.engine),
    })),
  ];
  if (memoryBars.length === 0) return [];
  return [
    {
      id: "memory",
      title: "Peak memory of the gateway",
      description: `Peak resident set size of the gateway's processes during each scenario (Tumira's server, Kannel's boxes). Target: ${benchTargets.serverRssMb} MB for Tumira's server.`,
      format: megabytes,
      bars: memoryBars,
      reference: { value: benchTargets.serverRssMb, label: `target ${benchTargets.serverRssMb} MB` },
    },
  ];
}

/** Every chart the runs have figures for, in scenario order. */
export function buildCharts(runs: readonly BenchRun[]): Chart[] {
  const scenarios = groupByScenario(runs);
  const settingsOf = (pick: (settings: BenchRun["settings"]) => number) => [...new Set(runs.map((run) => pick(run.settings)))].join(" or ");
  return [
    ...singleSendCharts(
      scenarios.single,
      settingsOf((settings) => settings.connections),
    ),
    ...bulkCharts(scenarios.bulk),
    ...dispatchCharts(
      scenarios.dispatch,
      settingsOf((settings) => settings.dispatchCount).replace(/\d+/g, (count) => recipients(Number(count))),
    ),
    ...readCharts(
      scenarios.read,
      settingsOf((settings) => settings.connections),
    ),
    ...deliveryControlCharts(scenarios["delivery-control"]),
    ...memoryChart(scenarios),
  ];
}
