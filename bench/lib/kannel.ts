// Kannel 1.4.5 (Debian) as the peer gateway: bearerbox (queue and SMSC connections, with its file
// store), smsbox (the HTTP sendsms interface) and the fake SMSC test client, configured in a
// temporary directory on free ports. Installed with apt-get when bearerbox is missing.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/tests/helpers/server-process";
import { whileRunning } from "./cleanup";
import { ensureDebianPackages } from "./debian-packages";
import { cpuSeconds, peakRssMb } from "./memory";
import { log } from "./report";
import { BENCH_SENDER, BENCH_TEXT } from "./tumira";

const BEARERBOX = "/usr/sbin/bearerbox";
const SMSBOX = "/usr/sbin/smsbox";
const FAKESMSC = "/usr/lib/kannel/test/fakesmsc";
const PASSWORD = "bench";
const SMSC_ID = "out";
/** Only errors on the console: logging every message would slow Kannel down. */
const QUIET = ["-v", "4"];

/** receipts: delivery receipts bearerbox has taken back from the SMSC. */
export type KannelCounters = { accepted: number; sentToSmsc: number; queued: number; receipts: number };

export type Kannel = {
  sendsmsUrl: string;
  /** sendsms path for wrk, with a fresh {msisdn} per request. */
  sendsmsPath: string;
  counters: () => Promise<KannelCounters>;
  /** Starts the fake SMSC client (until then, bearerbox queues what it accepts). */
  connectFakeSmsc: () => void;
  waitUntilOnline: () => Promise<void>;
  peakRssMb: () => number;
  /** CPU seconds used so far by bearerbox and smsbox. */
  cpuSeconds: () => number;
  stop: () => Promise<void>;
};

/** Kannel's fake SMSC (its own line protocol, no acknowledgements), or an SMPP SMSC it binds to. */
export type KannelSmsc =
  | { kind: "fake" }
  | {
      kind: "smpp";
      port: number;
      systemId: string;
      password: string;
      window: number;
      /** messages/s, as a carrier caps a bind */ throughput?: number;
    };

function smscConfig(smsc: KannelSmsc, fakePort: number): string {
  if (smsc.kind === "fake") {
    return `group = smsc
smsc = fake
smsc-id = ${SMSC_ID}
port = ${fakePort}
connect-allow-ip = 127.0.0.1
`;
  }
  return `group = smsc
smsc = smpp
smsc-id = ${SMSC_ID}
host = 127.0.0.1
port = ${smsc.port}
transceiver-mode = true
system-type = ""
smsc-username = ${smsc.systemId}
smsc-password = ${smsc.password}
reconnect-delay = 1
max-pending-submits = ${smsc.window}
${smsc.throughput ? `throughput = ${smsc.throughput}\n` : ""}source-addr-ton = 5
source-addr-npi = 0
dest-addr-ton = 1
dest-addr-npi = 1
`;
}

function kannelConfig(
  ports: { admin: number; smsbox: number; smsc: number; sendsms: number },
  storeFile: string,
  smsc: KannelSmsc,
): string {
  return `group = core
admin-port = ${ports.admin}
admin-interface = 127.0.0.1
admin-password = ${PASSWORD}
status-password = ${PASSWORD}
smsbox-port = ${ports.smsbox}
box-allow-ip = 127.0.0.1
log-level = 4
store-type = file
store-location = "${storeFile}"

${smscConfig(smsc, ports.smsc)}
group = smsbox
bearerbox-host = 127.0.0.1
sendsms-port = ${ports.sendsms}
sendsms-interface = 127.0.0.1
log-level = 4

group = sendsms-user
username = ${PASSWORD}
password = ${PASSWORD}

group = sms-service
keyword = default
text = "ok"
`;
}

function startBox(binary: string, args: string[], logFile: string): ChildProcess {
  const out = fs.openSync(logFile, "a");
  const child = spawn(binary, args, { stdio: ["ignore", out, out] });
  fs.closeSync(out);
  return child;
}

async function stopBox(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`Kannel: ${what} did not come up`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const COUNTERS_PATTERN =
  /<sms>\s*<received><total>\d+<\/total><queued>\d+<\/queued><\/received>\s*<sent><total>(\d+)<\/total><queued>(\d+)<\/queued><\/sent>\s*<storesize>(-?\d+)<\/storesize>/;
const RECEIPTS_PATTERN = /<dlr>\s*<received><total>(\d+)<\/total><\/received>/;

/**
 * Starts bearerbox and smsbox. While the SMSC is not connected (fake: until connectFakeSmsc; SMPP:
 * until something listens on its port, retried every second) bearerbox queues what it accepts.
 */
export async function startKannel(options: { smsc: KannelSmsc }): Promise<Kannel> {
  await ensureDebianPackages([BEARERBOX, FAKESMSC], ["kannel", "kannel-extras"]);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startKannelOnFreePorts(options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw error;
      log(`Kannel could not bind one of its ports (attempt ${attempt}); trying other ports`);
    }
  }
}

/**
 * Kannel binds its ports without SO_REUSEADDR, so a port that freePort found free (node's own test
 * listen sets it) can still be refused while earlier load runs' connections linger in TIME_WAIT on it.
 */
class PortTakenError extends Error {}
const PORT_ATTEMPTS = 3;
const PORT_TAKEN_PATTERN = /Failed to open HTTP socket|Could not open \w+ port/;

async function startKannelOnFreePorts(options: { smsc: KannelSmsc }): Promise<Kannel> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-bench-kannel-"));
  const ports = { admin: await freePort(), smsbox: await freePort(), smsc: await freePort(), sendsms: await freePort() };
  const configFile = path.join(directory, "kannel.conf");
  fs.writeFileSync(configFile, kannelConfig(ports, path.join(directory, "store"), options.smsc));
  const logFile = path.join(directory, "kannel.log");
  const boxes: ChildProcess[] = [];
  const adminUrl = `http://127.0.0.1:${ports.admin}`;
  const sendsmsUrl = `http://127.0.0.1:${ports.sendsms}`;

  const counters = async (): Promise<KannelCounters> => {
    const xml = await (await fetch(`${adminUrl}/status.xml?password=${PASSWORD}`)).text();
    const match = COUNTERS_PATTERN.exec(xml);
    if (!match) throw new Error(`Kannel: unexpected status.xml:\n${xml.slice(0, 2000)}`);
    const [sent, queued] = [Number(match[1]), Number(match[2])];
    return { accepted: sent + queued, sentToSmsc: sent, queued, receipts: Number(RECEIPTS_PATTERN.exec(xml)?.[1] ?? 0) };
  };
  const stop = whileRunning(async () => {
    for (const box of [...boxes].reverse()) await stopBox(box);
    fs.rmSync(directory, { recursive: true, force: true });
  });
  const connectFakeSmsc = () => {
    if (options.smsc.kind !== "fake") throw new Error("Kannel is configured for an SMPP SMSC");
    // -m 0: the fake SMSC sends no mobile-originated messages, it only takes what bearerbox pushes.
    boxes.push(startBox(FAKESMSC, [...QUIET, "-H", "127.0.0.1", "-r", String(ports.smsc), "-m", "0", "1 2 text x"], logFile));
  };
  const waitUntilOnline = () =>
    waitFor("SMSC connection", async () =>
      /<status>online/.test(await (await fetch(`${adminUrl}/status.xml?password=${PASSWORD}`)).text()),
    );

  try {
    boxes.push(startBox(BEARERBOX, [...QUIET, configFile], logFile));
    await waitFor("bearerbox", async () => (await fetch(`${adminUrl}/status.txt?password=${PASSWORD}`)).ok);
    boxes.push(startBox(SMSBOX, [...QUIET, configFile], logFile));
    await waitFor("smsbox", async () => (await fetch(`${sendsmsUrl}/cgi-bin/sendsms`)).status > 0);
  } catch (error) {
    const logTail = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-3000) : "";
    await stop();
    const ErrorClass = PORT_TAKEN_PATTERN.test(logTail) ? PortTakenError : Error;
    throw new ErrorClass(`${(error as Error).message}\n${logTail}`);
  }

  return {
    sendsmsUrl,
    sendsmsPath: `/cgi-bin/sendsms?username=${PASSWORD}&password=${PASSWORD}&from=${BENCH_SENDER}&to={msisdn}&text=${encodeURIComponent(BENCH_TEXT)}`,
    counters,
    connectFakeSmsc,
    waitUntilOnline,
    peakRssMb: () => boxes.reduce((sum, box) => sum + (peakRssMb(box.pid!) ?? 0), 0),
    cpuSeconds: () => boxes.reduce((sum, box) => sum + cpuSeconds(box.pid!), 0),
    stop,
  };
}
