// The measured process of `npm run bench:handler` (bench/handler.ts), run compiled (dist/): single
// sends through runApiRequest, BENCH_CONCURRENCY at a time, for BENCH_ROUNDS rounds of BENCH_SECONDS
// after one unmeasured round. Prints one JSON line per round on stdout.
import { runApiRequest } from "@/lib/api/handle-api-request";
import { prepareDatabase } from "@/lib/setup/prepare-database";

const token = process.env.BENCH_TOKEN ?? "";
const bodyTemplate = process.env.BENCH_BODY ?? "";
const concurrency = Number(process.env.BENCH_CONCURRENCY);
const rounds = Number(process.env.BENCH_ROUNDS);
const seconds = Number(process.env.BENCH_SECONDS);
// As bench/lua/load.lua draws them: random over the carriers, ending in 9 (no simulator magic ending).
const PREFIXES = ["263771", "263781", "263711", "263731"];

function randomRecipient(): string {
  return `${PREFIXES[Math.floor(Math.random() * PREFIXES.length)]}${String(Math.floor(Math.random() * 100_000)).padStart(5, "0")}9`;
}

const headers = new Map([
  ["authorization", `Bearer ${token}`],
  ["content-type", "application/json"],
]);

function sendOne() {
  const body = Buffer.from(bodyTemplate.replace("{msisdn}", randomRecipient()));
  return runApiRequest({
    method: "POST",
    pathname: "/api/v1/sms",
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

async function main(): Promise<void> {
  await prepareDatabase();
  await round();
  for (let index = 1; index <= rounds; index++) console.log(JSON.stringify({ round: index, ...(await round()) }));
  process.exit(0);
}

void main();
