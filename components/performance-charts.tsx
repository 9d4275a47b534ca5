"use client";

import { Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { BenchResults, LatestScenario, RunInfo, SingleSendHistoryPoint } from "@/lib/benchmarks/read-bench-results";
import { benchTargets, engineName, perSecond } from "@/lib/benchmarks/bench-targets";
import { Card, CardBody, CardHeader } from "./ui/card";

const axis = { fontSize: 11, fill: "#64748b" };
const colors = { tumira: "#16a34a", ceiling: "#bbf7d0", kannel: "#94a3b8", raw: "#cbd5e1", target: "#dc2626" };
const engineColors: Record<string, string> = { sqlite: "#16a34a", postgres: "#0284c7" };
const engineLabel = (engine: string) => (engine === "-" ? "" : ` (${engineName(engine)})`);

type RateBar = { label: string; value: number; color: string };

/** Horizontal bars, one per competitor: long names stay readable on the left. */
function RateBars({ bars, format, reference, testId }: { bars: RateBar[]; format: (value: number) => string; reference?: { value: number; label: string }; testId: string }) {
  return (
    <div style={{ height: 48 + bars.length * 40 }} data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={bars} layout="vertical" margin={{ top: 16, right: 32, bottom: 0, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="#e2e8f0" />
          <XAxis type="number" tick={axis} tickLine={false} axisLine={false} tickFormatter={(value: number) => value.toLocaleString("en")} />
          <YAxis type="category" dataKey="label" tick={axis} tickLine={false} axisLine={false} width={230} />
          <Tooltip formatter={(value) => [format(Number(value)), ""]} cursor={{ fill: "#f1f5f9" }} />
          {/* extendDomain: a target above every bar (a p99 under 25 ms) is still drawn. */}
          {reference && <ReferenceLine x={reference.value} ifOverflow="extendDomain" stroke={colors.target} strokeDasharray="4 3" label={{ value: reference.label, position: "top", fontSize: 11, fill: colors.target }} />}
          <Bar isAnimationActive={false} dataKey="value" radius={[0, 3, 3, 0]} barSize={20}>
            {bars.map((bar) => <Cell key={bar.label} fill={bar.color} />)}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

function ChartCard({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <CardBody>{children}</CardBody>
    </Card>
  );
}

function ranAt({ startedAt, machine }: RunInfo): string {
  return `Run of ${new Date(startedAt).toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine.cpus} × ${machine.cpuModel}.`;
}

function SingleSendCharts({ latest }: { latest: LatestScenario<"single"> }) {
  const rows = latest.result.data.rows.filter((row) => row.requestsPerSecond !== null);
  const kannel = rows.find((row) => row.kind === "kannel")?.requestsPerSecond ?? null;
  const label = (row: (typeof rows)[number]) =>
    row.kind === "kannel" ? "Kannel sendsms" : `${row.kind === "send" ? "Tumira POST /api/v1/sms" : "Tumira GET /api/ping"}${engineLabel(row.engine)}`;
  const color = (kind: string) => (kind === "kannel" ? colors.kannel : kind === "send" ? colors.tumira : colors.ceiling);
  return (
    <>
      <ChartCard title="Single send: accepted per second" description={`${ranAt(latest.run)} Kannel's rate is the target; the ping is Tumira's own ceiling.`}>
        <RateBars
          testId="chart-single-rate"
          bars={rows.map((row) => ({ label: label(row), value: row.requestsPerSecond!, color: color(row.kind) }))}
          format={perSecond}
          reference={kannel === null ? undefined : { value: kannel, label: "Kannel" }}
        />
      </ChartCard>
      <ChartCard title="Single send: p99 latency" description={`Milliseconds at ${latest.run.settings.connections} connections; the target is ${benchTargets.singleSendP99Ms} ms.`}>
        <RateBars
          testId="chart-single-p99"
          bars={rows.filter((row) => row.p99Ms !== null).map((row) => ({ label: label(row), value: row.p99Ms!, color: color(row.kind) }))}
          format={(value) => `${value.toFixed(1)} ms`}
          reference={{ value: benchTargets.singleSendP99Ms, label: `${benchTargets.singleSendP99Ms} ms` }}
        />
      </ChartCard>
    </>
  );
}

function BulkChart({ latest }: { latest: LatestScenario<"bulk"> }) {
  const data = latest.result.data.rows
    .filter((row) => row.ok && row.seconds && row.rawSeconds)
    .map((row) => ({ label: `${row.recipients >= 1000 ? `${row.recipients / 1000}k` : row.recipients}${engineLabel(row.engine)}`, tumira: row.recipients / row.seconds!, raw: row.recipients / row.rawSeconds! }));
  return (
    <ChartCard title="Bulk send: recipients accepted per second" description={`${ranAt(latest.run)} One request per size, against inserting the same rows with the bare driver.`}>
      <div className="h-72" data-testid="chart-bulk">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={axis} tickLine={false} axisLine={false} interval={0} angle={-25} textAnchor="end" height={56} />
            <YAxis tick={axis} tickLine={false} axisLine={false} tickFormatter={(value: number) => value.toLocaleString("en")} />
            <Tooltip formatter={(value, name) => [perSecond(Number(value)), name]} cursor={{ fill: "#f1f5f9" }} />
            <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} />
            <Bar isAnimationActive={false} dataKey="tumira" name="Tumira POST /api/v1/sms/bulk" fill={colors.tumira} radius={[3, 3, 0, 0]} />
            <Bar isAnimationActive={false} dataKey="raw" name="Raw insert (physical limit)" fill={colors.raw} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </ChartCard>
  );
}

function DispatchChart({ latest }: { latest: LatestScenario<"dispatch"> }) {
  const bars = latest.result.data.rows
    .filter((row) => row.messagesPerSecond !== null)
    .map((row) => ({ label: `${row.competitor.replace("Kannel 1.4.5", "Kannel")}${engineLabel(row.engine)}`, value: row.messagesPerSecond!, color: row.gateway === "tumira" ? colors.tumira : colors.kannel }));
  return (
    <ChartCard title="Dispatch: messages to the SMSC per second" description={`${ranAt(latest.run)} ${latest.run.settings.dispatchCount.toLocaleString("en")} queued messages, from the first out to the last.`}>
      <RateBars testId="chart-dispatch" bars={bars} format={perSecond} />
    </ChartCard>
  );
}

function ReadChart({ latest }: { latest: LatestScenario<"read"> }) {
  const bars = latest.result.data.rows
    .filter((row) => row.requestsPerSecond !== null)
    .map((row) => ({ label: `${row.kind === "read" ? "GET /api/v1/sms/{id}" : "GET /api/ping"}${engineLabel(row.engine)}`, value: row.requestsPerSecond!, color: row.kind === "read" ? colors.tumira : colors.ceiling }));
  const target = benchTargets.readRequestsPerSecond;
  return (
    <ChartCard title="Read: requests per second" description={`${ranAt(latest.run)} Random existing message ids; the target is ${target.toLocaleString("en")}/s.`}>
      <RateBars testId="chart-read" bars={bars} format={perSecond} reference={{ value: target, label: "target" }} />
    </ChartCard>
  );
}

function HistoryChart({ history }: { history: SingleSendHistoryPoint[] }) {
  const runs = new Map<string, Record<string, number | string>>();
  for (const point of history) {
    const run = runs.get(point.startedAt) ?? { startedAt: point.startedAt };
    run[point.engine] = Number(point.timesKannel.toFixed(3));
    runs.set(point.startedAt, run);
  }
  const engines = [...new Set(history.map((point) => point.engine))];
  const shortTime = (value: string) => new Date(value).toISOString().slice(5, 16).replace("T", " ");
  return (
    <ChartCard title="Single send against Kannel, run by run" description="Tumira's accepted sends per second divided by Kannel's in the same run; 1.0 is the target.">
      <div className="h-64" data-testid="chart-history">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={[...runs.values()]} margin={{ top: 16, right: 16, bottom: 0, left: -8 }}>
            <CartesianGrid vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="startedAt" tickFormatter={shortTime} tick={axis} tickLine={false} axisLine={false} />
            <YAxis tick={axis} tickLine={false} axisLine={false} domain={[0, (max: number) => Math.max(1.2, Math.ceil(max * 10) / 10)]} />
            <Tooltip labelFormatter={(value) => `${shortTime(String(value))} UTC`} formatter={(value, name) => [`${value} ×`, String(name)]} />
            <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} />
            <ReferenceLine y={benchTargets.singleSendTimesKannel} stroke={colors.target} strokeDasharray="4 3" />
            {engines.map((engine) => (
              <Line key={engine} isAnimationActive={false} type="monotone" dataKey={engine} name={engineName(engine)} stroke={engineColors[engine] ?? colors.kannel} strokeWidth={2} dot={{ r: 3 }} connectNulls />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </ChartCard>
  );
}

export function PerformanceCharts({ latest, history }: { latest: BenchResults["latest"]; history: SingleSendHistoryPoint[] }) {
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      {latest.single && <SingleSendCharts latest={latest.single} />}
      {new Set(history.map((point) => point.startedAt)).size > 1 && <HistoryChart history={history} />}
      {latest.bulk && <BulkChart latest={latest.bulk} />}
      {latest.dispatch && <DispatchChart latest={latest.dispatch} />}
      {latest.read && <ReadChart latest={latest.read} />}
    </div>
  );
}
