// Bulk accept. One POST /api/v1/sms/bulk per size: time until the whole 202 response is
// in, recipients/s; against inserting the very rows that send wrote, with the raw driver in one
// transaction, into an empty database (the physical limit).
import { benchTargets } from "../lib/targets";
import { createBenchDatabase, type Engine } from "../lib/database";
import { formatMb, log, round, type Table } from "../lib/report";
import { insertRowsRaw, listTables, rowsSince, selectRows, snapshotRows } from "../lib/row-copy";
import type { BenchSettings, ScenarioResult } from "../lib/settings";
import { BENCH_SENDER, BENCH_TEXT, cli, withFreshTumira, withSql } from "../lib/tumira";

/** Econet (77, 78), NetOne (71), Telecel (73; 730 is not one of its ranges). */
const PREFIXES = ["771", "781", "711", "731"];

/**
 * Distinct recipients spread over the three carriers. Each ends in 9, so none ends in the SMSC
 * simulator's magic 0001-0008 (refusals, failed receipts) and every message can succeed.
 */
export function recipients(count: number, offset = 0): string[] {
  return Array.from({ length: count }, (_, index) => {
    const number = offset + index;
    return `+263${PREFIXES[number % PREFIXES.length]}${String(number % 100_000).padStart(5, "0")}9`;
  });
}

/** A bulk request's body: `count` of those recipients, from `offset`. */
export function bulkRequestBody(count: number, offset = 0): string {
  return JSON.stringify({ to: recipients(count, offset), message: BENCH_TEXT, from: BENCH_SENDER });
}

/** Longer than any sane bulk; past it the row says "timed out" instead of the run hanging. */
const BULK_TIMEOUT_MS = 240_000;

export type BulkOutcome = { seconds: number; status: number | "timed out"; total: number | undefined; error?: string };

/** Sends one bulk and returns the seconds until the complete response was read. */
export async function sendBulk(baseUrl: string, token: string, count: number, offset = 0): Promise<BulkOutcome> {
  const body = bulkRequestBody(count, offset);
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}/api/v1/sms/bulk`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(BULK_TIMEOUT_MS),
    });
    const text = await response.text();
    const seconds = (performance.now() - started) / 1000;
    const parsed = JSON.parse(text) as { data?: { total?: number } };
    return { seconds, status: response.status, total: parsed.data?.total, error: response.status === 202 ? undefined : text.slice(0, 500) };
  } catch (error) {
    if ((error as Error).name !== "TimeoutError") throw error;
    return {
      seconds: BULK_TIMEOUT_MS / 1000,
      status: "timed out",
      total: undefined,
      error: `no answer within ${BULK_TIMEOUT_MS / 1000} s`,
    };
  }
}

/** rawSeconds is NaN when the send timed out (nothing to copy). */
type BulkRow = {
  engine: Engine;
  recipients: number;
  seconds: number;
  rawSeconds: number;
  rowsWritten: Record<string, number>;
  ok: boolean;
};

type PeakRss = { peakRssMb: number | null; peakRssUpperBoundMb: number | null; peakPssMb: number | null };

async function measureEngine(settings: BenchSettings, engine: Engine): Promise<{ rows: BulkRow[] } & PeakRss> {
  return withFreshTumira(settings, engine, "bulk", async ({ database, account, server }) => {
    const baseline = await createBenchDatabase(engine, settings.postgresAdminUrl);
    try {
      await cli(baseline, ["migrate"]);
      return await withSql(database, async (sql) => {
        const tables = await listTables(sql);
        await insertRowsRaw(baseline, [await selectRows(sql, "Account")]);
        const rows: BulkRow[] = [];
        for (const size of settings.bulkSizes) {
          const before = await snapshotRows(sql, tables);
          log(`bulk/${engine}: ${size} recipients`);
          const sent = await sendBulk(server.url, account.token, size);
          if (sent.status === "timed out") {
            log(`bulk/${engine}: ${size} recipients: ${sent.error}; larger sizes skipped`);
            rows.push({ engine, recipients: size, seconds: sent.seconds, rawSeconds: Number.NaN, ok: false, rowsWritten: {} });
            await server.kill(); // its transaction may run on for minutes; a graceful stop would wait for it
            break;
          }
          const written = await rowsSince(sql, before);
          const rawSeconds = await insertRowsRaw(baseline, written);
          const ok = sent.status === 202 && sent.total === size;
          if (!ok) log(`bulk/${engine}: ${size} recipients answered ${sent.status} (total ${sent.total}): ${sent.error}`);
          rows.push({
            engine,
            recipients: size,
            seconds: sent.seconds,
            rawSeconds,
            ok,
            rowsWritten: Object.fromEntries(written.map((table) => [table.table, table.rows.length])),
          });
        }
        return { rows, peakRssMb: server.peakRssMb(), peakRssUpperBoundMb: server.peakRssUpperBoundMb(), peakPssMb: server.peakPssMb() };
      });
    } finally {
      await baseline.drop();
    }
  });
}

export async function runBulkScenario(settings: BenchSettings): Promise<ScenarioResult> {
  const rows: BulkRow[] = [];
  const peakRss: Record<string, PeakRss> = {};
  for (const engine of settings.engines) {
    const { rows: engineRows, ...rss } = await measureEngine(settings, engine);
    rows.push(...engineRows);
    peakRss[engine] = rss;
  }
  const table: Table = {
    title: "Bulk accept: one POST /api/v1/sms/bulk per size, time until the whole 202 response is read",
    columns: ["engine", "recipients", "Tumira s", "recipients/s", "raw insert s", "× raw", "status"],
    rows: rows.map((row) => [
      row.engine,
      row.recipients,
      round(row.seconds),
      round(row.recipients / row.seconds),
      round(row.rawSeconds),
      round(row.seconds / row.rawSeconds),
      row.ok ? "202, all accepted" : Number.isNaN(row.rawSeconds) ? "TIMED OUT" : "FAILED",
    ]),
    notes: [
      ...Object.entries(peakRss).map(
        ([engine, rss]) =>
          `peak server RSS (${engine}): ${formatMb(rss.peakRssMb)} (sum of each process's own peak: ${formatMb(rss.peakRssUpperBoundMb)}; peak PSS, shared pages counted once: ${formatMb(rss.peakPssMb)})`,
      ),
      ...rows
        .filter((row) => row.ok)
        .slice(-1)
        .map((row) => `rows written by the largest send: ${JSON.stringify(row.rowsWritten)}; the raw insert writes the same rows`),
      `target: ${benchTargets.bulkRecipients.toLocaleString("en")} recipients in ≤ ${benchTargets.bulkSqliteSeconds} s on SQLite, ≤ ${benchTargets.bulkTimesRaw} × the raw insert, RSS ≤ ${benchTargets.serverRssMb} MB`,
    ],
  };
  return { scenario: "bulk", tables: [table], data: { rows, peakRssMb: peakRss } };
}
