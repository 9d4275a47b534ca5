// Inbound messages over real SMPP: the SMSC simulator originates deliver_sm to the carrier binds of
import net from "node:net";
// the delivery services, which store, reassemble, deduplicate and route them.
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { assignInboundNumber } from "@/lib/inbound/inbound-numbers";
import { storeOverdueParts } from "@/lib/inbound/store-inbound";
import { encodeUcs2 } from "@/lib/messages/segments";
import { STATUS } from "@/lib/smpp/command-status";
import type { ShortMessageFields } from "@/lib/smpp/pdu";
import { runCli } from "@/lib/cli/run-cli";
import { originateThroughSimulator } from "@/lib/smsc/originate-through-simulator";
import { useTestDatabase } from "../helpers/test-database";
import { carrierUrls, createSendingAccount, setEnv, startTestSimulator, waitFor, type TestSimulator } from "../helpers/delivery";

useTestDatabase();

/** `npm run smsc -- <args>` from the sources: its exit code and what it wrote to stderr. */
function runSmscCommand(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/smsc.ts", ...args],
      { env: { ...process.env, ...env } },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

let simulator: TestSimulator;
let services: BackgroundService[] = [];

beforeAll(async () => {
  simulator = await startTestSimulator();
  setEnv({ ...carrierUrls(simulator.port) });
  services = await startDeliveryServices({ dispatcher: true, simulator: false }, { dispatcher: { pollMs: 50 } });
  await waitFor(
    async () =>
      simulator.deliver("econet", mo("263770000001", "9999", "bound?")).then(
        () => true,
        () => false,
      ),
    "econet bind",
  );
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
});

function mo(from: string, to: string, text: string, extra: Partial<ShortMessageFields> = {}): ShortMessageFields {
  return {
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: from,
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: to,
    esm_class: 0,
    data_coding: 0,
    short_message: Buffer.from(text, "latin1"),
    ...extra,
  };
}

const inboxOf = (accountId: string | null, to: string) =>
  db().inboundMessage.findMany({ where: { accountId, to }, orderBy: { receivedAt: "asc" } });

describe("inbound messages over SMPP", () => {
  it("routes an originated message to the account holding its number and decodes GSM-7 with the extension table", async () => {
    const accountId = await createSendingAccount();
    const cli = await runCli(["numbers:assign", "--account", accountId, "--number", "+263780000101"]);
    expect(cli.code).toBe(0);
    simulator.originate({ systemId: "econet", from: "+263771234567", to: "+263780000101", message: "Yes {please} €5" });
    const [message] = await waitFor(async () => {
      const rows = await inboxOf(accountId, "+263780000101");
      return rows.length > 0 && rows;
    }, "the inbound message");
    expect(message).toMatchObject({
      from: "+263771234567",
      body: "Yes {please} €5",
      operator: "econet",
      encoding: "gsm7",
      segments: 1,
      complete: true,
    });
    const audit = await db().auditEvent.findFirst({ where: { accountId, action: "number.assigned" } });
    expect(audit?.actor).toBe("cli");
  });

  it("joins a two-part UCS-2 message whose parts arrive in reverse order (16-bit UDH reference)", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: "+263780000102", operator: null, actor: "test" });
    const text = "Mhoro 👋 ".repeat(12);
    const bytes = encodeUcs2(text);
    const half = 66 * 2 + 1; // splits a surrogate pair between the parts
    const parts = [bytes.subarray(0, half), bytes.subarray(half)];
    const udh = (n: number) => Buffer.from([6, 0x08, 4, 0x12, 0x34, 2, n]);
    for (const n of [2, 1]) {
      const status = await simulator.deliver(
        "econet",
        mo("263771111111", "263780000102", "", { esm_class: 0x40, data_coding: 8, short_message: Buffer.concat([udh(n), parts[n - 1]]) }),
      );
      expect(status).toBe(STATUS.ESME_ROK);
    }
    const rows = await inboxOf(accountId, "+263780000102");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ body: text, encoding: "ucs2", segments: 2, complete: true, from: "+263771111111" });
  });

  it("joins parts numbered by SAR TLVs", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: "34567", operator: "econet", actor: "test" });
    for (const [n, text] of [
      [1, "first half, "],
      [2, "second half"],
    ] as const) {
      await simulator.deliver(
        "econet",
        mo("263772222222", "34567", text, { sar_msg_ref_num: 700, sar_total_segments: 2, sar_segment_seqnum: n }),
      );
    }
    const rows = await inboxOf(accountId, "34567");
    expect(rows.map((row) => row.body)).toEqual(["first half, second half"]);
  });

  it("stores a redelivered PDU once, whole or a part", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: "+263780000103", operator: null, actor: "test" });
    const single = mo("263773333333", "263780000103", "only once");
    expect(await simulator.deliver("econet", single)).toBe(STATUS.ESME_ROK);
    expect(await simulator.deliver("econet", single)).toBe(STATUS.ESME_ROK);
    const part = (n: number) =>
      mo("263773333333", "263780000103", "", {
        esm_class: 0x40,
        short_message: Buffer.concat([Buffer.from([5, 0, 3, 9, 2, n]), Buffer.from(`part ${n}.`)]),
      });
    await simulator.deliver("econet", part(1));
    await simulator.deliver("econet", part(1));
    await simulator.deliver("econet", part(2));
    await simulator.deliver("econet", part(2));
    const rows = await inboxOf(accountId, "+263780000103");
    expect(rows.map((row) => row.body)).toEqual(["only once", "part 1.part 2."]);
    expect(await db().inboundPart.count({ where: { to: "+263780000103", messageId: null } })).toBe(0);
  });

  it("keeps a message for a number no account holds, unrouted", async () => {
    await simulator.deliver("econet", mo("263774444444", "263789999999", "anyone there?"));
    const rows = await inboxOf(null, "+263789999999");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ accountId: null, body: "anyone there?" });
  });

  it("prefers the carrier's own assignment of a number over an all-carrier one", async () => {
    const [all, econet] = [await createSendingAccount(), await createSendingAccount()];
    await assignInboundNumber({ accountId: all, number: "40404", operator: null, actor: "test" });
    await assignInboundNumber({ accountId: econet, number: "40404", operator: "econet", actor: "test" });
    await simulator.deliver("econet", mo("263775555555", "40404", "to econet's holder"));
    expect((await inboxOf(econet, "40404")).map((row) => row.body)).toEqual(["to econet's holder"]);
    expect(await inboxOf(all, "40404")).toHaveLength(0);
  });

  it("takes a message originated from outside the simulator (npm run smsc -- mo), long enough for three parts", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: "+263780000105", operator: "telecel", actor: "test" });
    const text = "Mangwanani! ".repeat(30);
    await originateThroughSimulator({ host: "127.0.0.1", port: simulator.port, from: "+263731234567", to: "+263780000105", message: text });
    const [message] = await waitFor(async () => {
      const rows = await inboxOf(accountId, "+263780000105");
      return rows.length > 0 && rows;
    }, "the originated message");
    expect(message).toMatchObject({ body: text, segments: 3, operator: "telecel", from: "+263731234567", complete: true });
  });

  it("npm run smsc -- mo names a carrier it does not know, or a sender with no carrier, and originates nothing", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: "+263780000106", operator: null, actor: "test" });
    const run = (...args: string[]) =>
      runSmscCommand(["mo", "--to", "+263780000106", "--message", "hi", ...args], { SMSC_SIMULATOR_PORT: String(simulator.port) });
    const badOperator = await run("--from", "+263771234567", "--operator", "Econett");
    expect(badOperator).toMatchObject({ code: 2, stderr: "--operator must be one of econet, netone, telecel\n" });
    const noCarrier = await run("--from", "Acme");
    expect(noCarrier.code).toBe(2);
    expect(noCarrier.stderr).toContain("--from Acme is not a Zimbabwe mobile number, so it names no carrier: add --operator");
    // A sender that is no mobile number goes through with a carrier named.
    expect((await run("--from", "Acme", "--operator", "netone")).code).toBe(0);
    const [message] = await waitFor(async () => {
      const rows = await inboxOf(accountId, "+263780000106");
      return rows.length > 0 && rows;
    }, "the originated message");
    expect(message).toMatchObject({ from: "Acme", operator: "netone", body: "hi" });
    expect(await inboxOf(accountId, "+263780000106")).toHaveLength(1);
  });

  it("npm run smsc -- mo says when no simulator answers on SMSC_SIMULATOR_PORT", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const result = await runSmscCommand(["mo", "--from", "+263771234567", "--to", "34567", "--message", "hi"], {
      SMSC_SIMULATOR_PORT: String(closedPort),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`No SMSC simulator answers on 127.0.0.1:${closedPort}`);
    expect(result.stderr).toContain("SMSC_SIMULATOR_PORT");
  });

  it("stores what came of a message whose other parts never come, marked incomplete, after the timeout", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: "+263780000104", operator: null, actor: "test" });
    await simulator.deliver(
      "econet",
      mo("263776666666", "263780000104", "", {
        esm_class: 0x40,
        short_message: Buffer.concat([Buffer.from([5, 0, 3, 1, 3, 1]), Buffer.from("one ")]),
      }),
    );
    expect(await inboxOf(accountId, "+263780000104")).toHaveLength(0);
    const stored = await storeOverdueParts(60_000, new Date(Date.now() + 61_000));
    expect(stored.map((message) => message.body)).toContain("one ");
    const rows = await inboxOf(accountId, "+263780000104");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ complete: false, segments: 1, body: "one " });
  });
});
