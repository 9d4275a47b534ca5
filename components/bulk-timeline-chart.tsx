"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export type ChartBucket = { at: string; sent: number; delivered: number; failed: number };

const axis = { fontSize: 11, fill: "#64748b" };

/** Messages of a bulk send reaching each state per minute or hour (UTC). */
export function BulkTimelineChart({ buckets, unit }: { buckets: ChartBucket[]; unit: "minute" | "hour" }) {
  const label = (at: string) =>
    unit === "minute"
      ? new Date(at).toISOString().slice(11, 16)
      : new Date(at).toLocaleString("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  if (buckets.length === 0) {
    return (
      <div
        className="flex h-full items-center justify-center rounded-md border border-dashed border-slate-200 text-sm text-slate-500"
        data-testid="chart-empty"
      >
        No message has been sent yet: this fills in as the carriers answer.
      </div>
    );
  }
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={buckets} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="at" tickFormatter={label} tick={axis} tickLine={false} axisLine={false} />
        <YAxis allowDecimals={false} tick={axis} tickLine={false} axisLine={false} />
        <Tooltip labelFormatter={(at) => `${label(String(at))} UTC`} cursor={{ fill: "#f1f5f9" }} />
        <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} />
        <Bar isAnimationActive={false} dataKey="sent" name="Sent" fill="#38bdf8" />
        <Bar isAnimationActive={false} dataKey="delivered" name="Delivered" fill="#16a34a" />
        <Bar isAnimationActive={false} dataKey="failed" name="Failed" fill="#ef4444" />
      </BarChart>
    </ResponsiveContainer>
  );
}
