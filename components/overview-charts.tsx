"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { carrierName } from "@/lib/messages/vocabulary";
import { Card, CardBody, CardHeader } from "./ui/card";

export type ChartDay = { day: string; delivered: number; sent: number; failed: number; cancelled: number; inFlight: number; spend: number };
export type ChartCarrier = { operator: string; rate: number | null; final: number };

const axis = { fontSize: 11, fill: "#64748b" };
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/** What a chart with nothing to draw says instead of bare axes. */
function EmptyChart({ text, testId }: { text: string; testId: string }) {
  return (
    <div
      className="flex h-full items-center justify-center rounded-md border border-dashed border-slate-200 text-sm text-slate-500"
      data-testid={testId}
    >
      {text}
    </div>
  );
}

export function OverviewCharts({ days, carriers, currency }: { days: ChartDay[]; carriers: ChartCarrier[]; currency: string }) {
  const noMessages = days.every((day) => day.delivered + day.sent + day.failed + day.cancelled + day.inFlight === 0);
  const noSpend = days.every((day) => day.spend === 0);
  const noFinished = carriers.every((carrier) => carrier.rate === null);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Card className="lg:col-span-2">
        <CardHeader title="Messages per day" description="By final outcome, per UTC day, last 14 days." />
        <CardBody className="h-72" data-testid="chart-messages">
          {noMessages ? (
            <EmptyChart testId="chart-empty" text="No messages in the last 14 days: this fills in as you send." />
          ) : (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={days} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid vertical={false} stroke="#e2e8f0" />
                <XAxis dataKey="day" tickFormatter={shortDay} tick={axis} tickLine={false} axisLine={false} />
                <YAxis allowDecimals={false} tick={axis} tickLine={false} axisLine={false} />
                <Tooltip labelFormatter={(day) => shortDay(String(day))} cursor={{ fill: "#f1f5f9" }} />
                <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} />
                <Bar isAnimationActive={false} dataKey="delivered" name="Delivered" stackId="outcome" fill="#16a34a" />
                <Bar isAnimationActive={false} dataKey="sent" name="Sent, no receipt" stackId="outcome" fill="#38bdf8" />
                <Bar isAnimationActive={false} dataKey="failed" name="Failed" stackId="outcome" fill="#ef4444" />
                <Bar isAnimationActive={false} dataKey="cancelled" name="Cancelled" stackId="outcome" fill="#f59e0b" />
                <Bar isAnimationActive={false} dataKey="inFlight" name="In flight" stackId="outcome" fill="#cbd5e1" radius={[3, 3, 0, 0]} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Spend per day" description={`Charges net of refunds, ${currency}, per UTC day.`} />
        <CardBody className="h-64" data-testid="chart-spend">
          {noSpend ? (
            <EmptyChart testId="chart-empty" text="Nothing spent in the last 14 days." />
          ) : (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={days} margin={{ top: 4, right: 8, bottom: 0, left: -8 }}>
                <CartesianGrid vertical={false} stroke="#e2e8f0" />
                <XAxis dataKey="day" tickFormatter={shortDay} tick={axis} tickLine={false} axisLine={false} />
                <YAxis tick={axis} tickLine={false} axisLine={false} tickFormatter={(value: number) => value.toFixed(2)} />
                <Tooltip
                  labelFormatter={(day) => shortDay(String(day))}
                  formatter={(value) => [`${currency} ${Number(value).toFixed(4)}`, "Spend"]}
                  cursor={{ fill: "#f1f5f9" }}
                />
                <Bar isAnimationActive={false} dataKey="spend" name="Spend" fill="#15803d" radius={[3, 3, 0, 0]} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </CardBody>
      </Card>
      <Card>
        <CardHeader
          title="Delivery rate per carrier"
          description="Delivered out of finished messages (cancelled ones left out), last 14 days."
        />
        <CardBody className="h-64" data-testid="chart-carriers">
          {noFinished ? (
            <EmptyChart testId="chart-empty" text="No finished messages in the last 14 days, so no delivery rate yet." />
          ) : (
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={carriers} layout="vertical" margin={{ top: 4, right: 24, bottom: 0, left: 8 }}>
                <CartesianGrid horizontal={false} stroke="#e2e8f0" />
                <XAxis
                  type="number"
                  domain={[0, 100]}
                  tick={axis}
                  tickLine={false}
                  axisLine={false}
                  tickFormatter={(value: number) => `${value}%`}
                />
                <YAxis
                  type="category"
                  dataKey="operator"
                  tick={axis}
                  tickFormatter={(name: string) => carrierName(name)}
                  tickLine={false}
                  axisLine={false}
                  width={64}
                />
                <Tooltip
                  formatter={(value, _name, item) => [
                    value === null ? "no finished messages" : `${Number(value).toFixed(1)}% of ${(item.payload as ChartCarrier).final}`,
                    "Delivered",
                  ]}
                  cursor={{ fill: "#f1f5f9" }}
                />
                <Bar isAnimationActive={false} dataKey="rate" name="Delivery rate" fill="#0ea5e9" radius={[0, 3, 3, 0]} barSize={18} />
              </BarChart>
            </ResponsiveContainer>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
