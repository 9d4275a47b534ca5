// Interoperability: Kannel (Debian's bearerbox + smsbox, an SMPP client we did not write) binds to
// our SMSC simulator as a transceiver, submits what its sendsms HTTP interface is given, and gets
// the simulator's delivery receipts back, which it reports to a dlr-url. Kannel is installed with
// apt-get when missing; the test is skipped (saying why) only when that is impossible.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logger } from "@/lib/log";
import { SIMULATOR_PASSWORD } from "@/lib/smpp/carrier-config";
import { STATUS } from "@/lib/smpp/command-status";
import { startSmscSimulator, type SimulatedSubmit, type SmscSimulator } from "@/lib/smsc/smsc-simulator";
import { freePort } from "../helpers/server-process";
import { waitFor } from "../helpers/delivery";

const BEARERBOX = "/usr/sbin/bearerbox";

function ensureKannel(): string | null {
  if (fs.existsSync(BEARERBOX)) return null;
  if (!fs.existsSync("/usr/bin/apt-get")) return "Kannel is not installed and apt-get is unavailable: install the Debian package kannel";
  const install = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "kannel"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return install.status === 0 && fs.existsSync(BEARERBOX) ? null : "apt-get install kannel failed; see the output above";
}

const skipReason = ensureKannel();
if (skipReason) console.warn(`smsc-interop skipped: ${skipReason}`);

type Report = { type: number; to: string; reply: string };

let simulator: SmscSimulator;
const submits: SimulatedSubmit[] = [];
const reports: Report[] = [];
const kannel: ChildProcess[] = [];
let dlrServer: http.Server;
let workDir: string;
let sendsmsPort: number;
let dlrPort: number;
/** Whether the current attempt still restarts smsbox when it exits (until Kannel is ready). */
let smsboxKeeper = { restart: false };

/**
 * Starts bearerbox and smsbox on fresh ports and waits until both are ready. A second attempt, on
 * new ports, covers a port taken by another test file between choosing it and Kannel binding it.
 */
async function startKannel(): Promise<void> {
  try {
    await tryStartKannel();
  } catch (error) {
    console.warn(`Kannel did not start; trying once more on new ports. ${(error as Error).message}`);
    await stopKannel();
    await tryStartKannel();
  }
}

async function tryStartKannel(): Promise<void> {
  const keeper = { restart: true };
  smsboxKeeper = keeper;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-kannel-"));
  const [adminPort, smsboxPort] = [await freePort(), await freePort()];
  sendsmsPort = await freePort();
  const config = `
group = core
admin-port = ${adminPort}
admin-password = interop
admin-interface = 127.0.0.1
smsbox-port = ${smsboxPort}
smsbox-interface = 127.0.0.1
box-allow-ip = 127.0.0.1
log-file = "${workDir}/bearerbox.log"
log-level = 1
dlr-storage = internal

group = smsc
smsc = smpp
smsc-id = econet
host = 127.0.0.1
port = ${simulator.port}
transceiver-mode = true
smsc-username = econet
smsc-password = ${SIMULATOR_PASSWORD}
system-type = ""
enquire-link-interval = 30
reconnect-delay = 1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${smsboxPort}
sendsms-port = ${sendsmsPort}
sendsms-interface = 127.0.0.1
log-file = "${workDir}/smsbox.log"
log-level = 1

group = sendsms-user
username = interop
password = interop
`;
  const file = path.join(workDir, "kannel.conf");
  fs.writeFileSync(file, config);
  kannel.push(spawn(BEARERBOX, [file], { stdio: "ignore" }));
  // smsbox exits at once when bearerbox is not listening yet (slow under a loaded machine), so it
  // is started again whenever it exits before Kannel is ready.
  const startSmsbox = () => {
    if (!keeper.restart) return;
    const smsbox = spawn("/usr/sbin/smsbox", [file], { stdio: "ignore" });
    kannel.push(smsbox);
    smsbox.once("exit", () => setTimeout(startSmsbox, 250));
  };
  startSmsbox();
  // Ready when smsbox answers and bearerbox reports the SMPP connection online.
  await waitFor(
    async () => {
      const status = await fetch(`http://127.0.0.1:${adminPort}/status.txt?password=interop`).then(
        (response) => response.text(),
        () => "",
      );
      return (
        /econet\[econet\].*online/.test(status) &&
        (await fetch(`http://127.0.0.1:${sendsmsPort}/`).then(
          () => true,
          () => false,
        ))
      );
    },
    "Kannel to bind to the simulator and smsbox to listen",
    45_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${readKannelLogs()}`);
  });
  keeper.restart = false;
}

function readKannelLogs(): string {
  return ["bearerbox.log", "smsbox.log"]
    .map((name) => {
      const file = path.join(workDir, name);
      const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").slice(-15) : ["(no log)"];
      return `${name}:\n${lines.join("\n")}`;
    })
    .join("\n");
}

beforeAll(async () => {
  if (skipReason) return;
  simulator = await startSmscSimulator({ port: 0, tps: 100, dlrDelayMs: 200, logger, onSubmit: (submit) => submits.push(submit) });
  dlrServer = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    reports.push({
      type: Number(url.searchParams.get("type")),
      to: url.searchParams.get("to") ?? "",
      reply: url.searchParams.get("reply") ?? "",
    });
    response.end("ok");
  });
  dlrPort = await freePort();
  await new Promise<void>((resolve) => dlrServer.listen(dlrPort, "127.0.0.1", resolve));
  await startKannel();
}, 150_000);

async function stopKannel(): Promise<void> {
  smsboxKeeper.restart = false;
  for (const child of kannel.splice(0).reverse()) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
}

afterAll(async () => {
  await stopKannel();
  dlrServer?.close();
  await simulator?.stop();
});

async function sendThroughKannel(to: string, text: string): Promise<string> {
  // dlr-mask 1 delivered + 2 undelivered + 8 SMSC accepted; Kannel fills %d (type), %p (to), %A (reply).
  const dlrUrl = `http://127.0.0.1:${dlrPort}/dlr?type=%d&to=%p&reply=%A`;
  const query = new URLSearchParams({
    username: "interop",
    password: "interop",
    from: "KANNEL",
    to,
    text,
    "dlr-mask": "11",
    "dlr-url": dlrUrl,
  });
  const response = await fetch(`http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms?${query}`);
  return response.text();
}

describe.skipIf(skipReason !== null)("SMSC simulator with a third-party client (Kannel)", () => {
  it("takes Kannel's bind and submit_sm, and Kannel matches the DELIVRD receipt", async () => {
    expect(await sendThroughKannel("263771234560", "Hello from Kannel")).toMatch(/Accepted for delivery/);
    const [submit] = await waitFor(async () => {
      const found = submits.filter((entry) => entry.destination === "263771234560");
      return found.length > 0 && found;
    }, "the simulator to receive Kannel's submit_sm");
    expect(submit).toMatchObject({ systemId: "econet", source: "KANNEL", text: "Hello from Kannel", status: STATUS.ESME_ROK });
    const delivered = await waitFor(
      async () => reports.find((report) => report.to.endsWith("263771234560") && report.type === 1),
      "Kannel's delivered report",
    );
    expect(delivered.reply).toMatch(/stat:DELIVRD/);
    expect(reports.some((report) => report.to.endsWith("263771234560") && report.type === 8)).toBe(true);
  });

  it("reports an UNDELIV receipt to Kannel as a failed delivery", async () => {
    expect(await sendThroughKannel("263771230001", "Will not arrive")).toMatch(/Accepted for delivery/);
    const failed = await waitFor(
      async () => reports.find((report) => report.to.endsWith("263771230001") && report.type === 2),
      "Kannel's undelivered report",
    );
    expect(failed.reply).toMatch(/stat:UNDELIV/);
  });
});
