// The measured process of `npm run bench:handler` (bench/handler.ts), run compiled (dist/): single
// sends through runApiRequest, BENCH_CONCURRENCY at a time, for BENCH_ROUNDS rounds of BENCH_SECONDS
// after one unmeasured round; or, with BENCH_BULK_FILE, one bulk send of the body in that file per
// round. Prints one JSON line per round on stdout.
import fs from "node:fs";
import { runApiRequest } from "@/lib/api/handle-api-request";
import { prepareDatabase } from "@/lib/setup/prepare-database";
import { randomRecipient } from "./lib/recipients";

const token = process.env.BENCH_TOKEN ?? "";
const bodyTemplate = process.env.BENCH_BODY ?? "";
const concurrency = Number(process.env.BENCH_CONCURRENCY);
const rounds = Number(process.env.BENCH_ROUNDS);
const seconds = Number(process.env.BENCH_SECONDS);
const bulkBody = process.env.BENCH_BULK_FILE ? fs.readFileSync(process.env.BENCH_BULK_FILE) : undefined;

const headers = new Map([
  ["authorization", `Bearer ${token}`],
  ["content-type", "application/json"],
]);

function sendOne() {
  return post("/api/v1/sms", Buffer.from(bodyTemplate.replace("{msisdn}", randomRecipient())));
}

function post(pathname: string, body: Buffer) {
  return runApiRequest({
    method: "POST",
    pathname,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
    // The send handler reads neither the Web Request nor anything but the body and these headers.
    request: undefined as unknown as Request,
    bodyLength: body.length,
    readBody: async () => body,
  });
}

async function round(): Promise<{ sendsPerSecond: number; cpuMicrosPerSend: number; refused: number }> {
  let accepted = 0;
  let refused = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const response = await sendOne();
        if (response.status === 202) accepted++;
        else refused++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    sendsPerSecond: Math.round((accepted * 1000) / (performance.now() - started)),
    cpuMicrosPerSend: Number(((used.user + used.system) / accepted).toFixed(1)),
    refused,
  };
}

async function bulkRound(body: Buffer): Promise<{ seconds: number; cpuMillis: number; status: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await post("/api/v1/sms/bulk", body);
  const used = process.cpuUsage(cpu);
  return {
    seconds: Number(((performance.now() - started) / 1000).toFixed(3)),
    cpuMillis: Math.round((used.user + used.system) / 1000),
    status: response.status,
  };
}

async function main(): Promise<void> {
  await prepareDatabase();
  const measure = bulkBody ? () => bulkRound(bulkBody) : round;
  await measure();
  for (let index = 1; index <= rounds; index++) console.log(JSON.stringify({ round: index, ...(await measure()) }));
  process.exit(0);
}

void main();
