// Read. GET /api/v1/sms/{id} at N connections over random ids of existing messages
// (one bulk send makes them), with GET /api/ping on the same server as the ceiling.
import fs from "node:fs";
import path from "node:path";
import { benchTargets } from "../lib/targets";
import type { Engine } from "../lib/database";
import { round, type Table } from "../lib/report";
import type { BenchSettings, ScenarioResult } from "../lib/settings";
import { withFreshTumira, withSql } from "../lib/tumira";
import { measure, warmUp, type LoadResult, type LoadTarget } from "../lib/wrk";
import { sendBulk } from "./bulk";

const EXISTING_MESSAGES = 10_000;

type ReadRow = LoadResult & { kind: "read" | "ceiling"; engine: Engine; endpoint: string };

async function measureEngine(settings: BenchSettings, engine: Engine): Promise<ReadRow[]> {
  return withFreshTumira(settings, engine, "read", async ({ database, account, server }) => {
    const sent = await sendBulk(server.url, account.token, EXISTING_MESSAGES);
    if (sent.status !== 202)
      throw new Error(`read/${engine}: the bulk send that makes the messages answered ${sent.status}: ${sent.error}`);
    const ids = await withSql(database, (sql) => sql.all<{ id: string }>(`SELECT "id" FROM "Message"`));
    const idsFile = path.join(database.dataDir, "message-ids.txt");
    fs.writeFileSync(idsFile, ids.map((row) => row.id).join("\n"));
    const read: LoadTarget = {
      label: `read/${engine} GET /api/v1/sms/{id}`,
      baseUrl: server.url,
      path: "/api/v1/sms/{id}",
      token: account.token,
      idsFile,
    };
    await warmUp(settings, read);
    const rows: ReadRow[] = [
      { ...(await measure(settings, read)), kind: "read", engine, endpoint: `GET /api/v1/sms/{id} (${ids.length} ids)` },
    ];
    const ping: LoadTarget = { label: `read/${engine} GET /api/ping`, baseUrl: server.url, path: "/api/ping" };
    await warmUp(settings, ping);
    rows.push({ ...(await measure(settings, ping)), kind: "ceiling", engine, endpoint: "GET /api/ping (ceiling)" });
    return rows;
  });
}

export async function runReadScenario(settings: BenchSettings): Promise<ScenarioResult> {
  const rows: ReadRow[] = [];
  for (const engine of settings.engines) rows.push(...(await measureEngine(settings, engine)));
  const table: Table = {
    title: `Read: ${settings.connections} connections, ${settings.durationSeconds} s each, a random existing id per request`,
    columns: ["engine", "endpoint", "requests/s", "p50 ms", "p99 ms", "errors"],
    rows: rows.map((row) => [
      row.engine,
      row.endpoint,
      round(row.requestsPerSecond),
      round(row.p50Ms),
      round(row.p99Ms),
      row.errorResponses + row.socketErrors,
    ]),
    notes: [`target: ≥ ${benchTargets.readRequestsPerSecond.toLocaleString("en")} requests/s, p99 ≤ ${benchTargets.readP99Ms} ms`],
  };
  return { scenario: "read", tables: [table], data: { rows } };
}
