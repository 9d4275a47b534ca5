// Interoperability: an SMSC written with Net::SMPP (Debian's libnet-smpp-perl, a codec we did not
// write) originates mobile messages over a real socket to Tumira's carrier connection, which stores
// them. Net::SMPP is installed with apt-get when missing; the test is skipped, saying why, only
// when that is impossible.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { InboundHandler } from "@/lib/delivery/inbound-handler";
import { assignInboundNumber } from "@/lib/inbound/inbound-numbers";
import { CarrierConnection } from "@/lib/smpp/carrier-connection";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount } from "../helpers/delivery";

const hasNetSmpp = () => spawnSync("perl", ["-MNet::SMPP", "-e", "1"]).status === 0;

function ensureNetSmpp(): string | null {
  if (hasNetSmpp()) return null;
  if (!fs.existsSync("/usr/bin/apt-get"))
    return "Net::SMPP is not installed and apt-get is unavailable: install the Debian package libnet-smpp-perl";
  spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "libnet-smpp-perl"], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return hasNetSmpp() ? null : "apt-get install libnet-smpp-perl failed; see the output above";
}

const skipReason = ensureNetSmpp();
if (skipReason) console.warn(`inbound-interop skipped: ${skipReason}`);

useTestDatabase();

describe.skipIf(skipReason !== null)("inbound messages from a Net::SMPP SMSC", () => {
  it("stores GSM-7 and a reversed two-part UCS-2 message once each, acknowledging every PDU", async () => {
    const accountId = await createSendingAccount();
    await assignInboundNumber({ accountId, number: "34567", operator: "econet", actor: "test" });
    const smsc = spawn("perl", [path.join(__dirname, "../helpers/net-smpp-smsc.pl")], { stdio: ["ignore", "pipe", "inherit"] });
    const lines = readline.createInterface({ input: smsc.stdout! });
    const output: string[] = [];
    const port = await new Promise<number>((resolve, reject) => {
      lines.on("line", (line) => {
        output.push(line);
        if (line.startsWith("port ")) resolve(Number(line.slice(5)));
      });
      smsc.once("exit", (code) => reject(new Error(`Net::SMPP SMSC exited (${code}) before listening`)));
    });
    const exited = new Promise<number | null>((resolve) => smsc.once("exit", resolve));
    const inbound = new InboundHandler({ logger, reassemblyTimeoutMs: 60_000 });
    const connection = new CarrierConnection(
      {
        operator: "econet",
        host: "127.0.0.1",
        port,
        systemId: "tumira",
        password: "secret",
        systemType: "",
        tps: 10,
        window: 1,
        simulated: false,
      },
      { onReceipt: async () => undefined, onMobileOriginated: inbound.handle, logger, reconnectMinMs: 60_000 },
    );
    connection.start();
    try {
      expect(await exited).toBe(0);
    } finally {
      await connection.stop();
    }
    expect(output.filter((line) => line.startsWith("resp "))).toEqual(["resp gsm 0", "resp sar2 0", "resp sar1 0", "resp gsm-again 0"]);
    const rows = await db().inboundMessage.findMany({ where: { accountId }, orderBy: { receivedAt: "asc" } });
    expect(rows.map((row) => [row.body, row.encoding, row.segments, row.from, row.to])).toEqual([
      ["Price €5 ok", "gsm7", 1, "+263771234567", "34567"],
      ["Makadii? Tiri kutenda!", "ucs2", 2, "+263771234567", "34567"],
    ]);
  });
});
