// The account's own opt-out keywords and its confirmation replies over real SMPP: an account's stop
// and start words change its list like STOP and START, and with confirmations on, a keyword that
// changed the list is answered through the normal send path (priced, held and charged once, in the
// message list, delivered to the carrier), the stop confirmation included; with them off, no reply.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/lib/accounts/create-account";
import { db } from "@/lib/db/client";
import { startDeliveryServices } from "@/lib/delivery/start-delivery-services";
import { stopBackgroundServices, type BackgroundService } from "@/lib/delivery/background-services";
import { assignInboundNumber } from "@/lib/inbound/inbound-numbers";
import { DEFAULT_STOP_REPLY, readOptOutSettings, saveOptOutSettings } from "@/lib/opt-outs/opt-out-settings";
import { CONFIRMATION_ACTOR } from "@/lib/opt-outs/confirmation-reply";
import { AppError } from "@/lib/errors";
import { queueInboundSimulation } from "@/lib/inbound/simulate-inbound";
import { useTestDatabase } from "../helpers/test-database";
import {
  carrierUrls,
  createSendingAccount,
  expectLedgerBalanced,
  SENDER,
  send,
  setEnv,
  startTestSimulator,
  waitFor,
  waitForFinal,
  type TestSimulator,
} from "../helpers/delivery";

useTestDatabase();

let simulator: TestSimulator;
let services: BackgroundService[] = [];

beforeAll(async () => {
  simulator = await startTestSimulator();
  setEnv(carrierUrls(simulator.port));
  services = await startDeliveryServices({ dispatcher: true, simulator: false }, { dispatcher: { pollMs: 50 } });
});

afterAll(async () => {
  await stopBackgroundServices(services);
  await simulator?.stop();
});

const settings = { stopReply: "Mirai: you will get no more messages. Reply TANGA to rejoin.", startReply: "Welcome back to Mirai." };

/** The inbound messages the account has stored, to wait on each one. */
async function inboundCount(accountId: string): Promise<number> {
  return db().inboundMessage.count({ where: { accountId } });
}

async function originate(accountId: string, from: string, to: string, message: string): Promise<void> {
  const before = await inboundCount(accountId);
  simulator.originate({ systemId: "econet", from, to, message });
  await waitFor(async () => (await inboundCount(accountId)) > before, `the inbound "${message}"`);
}

describe("the account's own opt-out keywords", () => {
  it("adds the sender on the account's stop word and removes it on its start word; sends are refused between", async () => {
    const accountId = await createSendingAccount();
    const number = "+263780000301";
    const handset = "+263771115551";
    await assignInboundNumber({ accountId, number, operator: null, actor: "test" });
    await saveOptOutSettings({ accountId, stopKeywords: "mira, ima", startKeywords: "tanga", confirm: false, ...settings, actor: "test" });
    expect((await readOptOutSettings(accountId)).stopKeywords).toEqual(["MIRA", "IMA"]);

    await originate(accountId, handset, number, "Mira!");
    const added = await waitFor(() => db().optOut.findFirst({ where: { accountId, number: handset } }), "the opt-out");
    expect(added.actor).toBe("keyword:MIRA");
    await expect(send(accountId, [handset], "Sale today")).rejects.toMatchObject({ code: "RECIPIENT_OPTED_OUT" });

    await originate(accountId, handset, number, " tanga ");
    await waitFor(async () => (await db().optOut.count({ where: { accountId, number: handset } })) === 0, "the removal");
    const [id] = await send(accountId, [handset], "Sale today");
    expect((await waitForFinal([id]))[0].status).toBe("success");

    // Confirmations are off: the only message of the account is the one it sent itself.
    expect(await db().message.count({ where: { accountId } })).toBe(1);
    await expectLedgerBalanced(accountId);
  });

  it("refuses keywords that are not one word, or that would both stop and start", async () => {
    const accountId = await createSendingAccount();
    const attempt = (stopKeywords: string, startKeywords: string) =>
      saveOptOutSettings({ accountId, stopKeywords, startKeywords, confirm: false, ...settings, actor: "test" }).then(
        () => null,
        (error: AppError) => error.options.fields?.map((field) => field.field),
      );
    expect(await attempt("two words", "")).toBeNull();
    expect(await attempt("MIRA-STOP", "")).toEqual(["stop_keywords"]);
    expect(await attempt("ABCDEFGHIJKLMNOPQRSTU", "")).toEqual(["stop_keywords"]);
    expect(await attempt("MIRA", "mira")).toEqual(["stop_keywords"]);
    expect(await attempt("START", "")).toEqual(["stop_keywords"]);
    expect(await attempt("", "STOP")).toEqual(["start_keywords"]);
  });
});

describe("confirmation replies", () => {
  it("answers a stop and a start that changed the list, from the inbound number when it is an approved sender id, charged once each", async () => {
    const number = "+263780000302";
    const handset = "+263771115552";
    const account = await createAccount({
      name: "Mirai",
      currency: "USD",
      openingBalance: 1_000_000n,
      senders: [SENDER, number],
      actor: "test",
    });
    const accountId = account.id;
    await assignInboundNumber({ accountId, number, operator: null, actor: "test" });
    await saveOptOutSettings({ accountId, stopKeywords: "", startKeywords: "", confirm: true, ...settings, actor: "test" });

    await originate(accountId, handset, number, "STOP");
    const stopReply = await waitFor(() => db().message.findFirst({ where: { accountId, body: settings.stopReply } }), "the stop reply");
    expect(stopReply).toMatchObject({ to: handset, senderId: number, test: false });
    expect((await waitForFinal([stopReply.id]))[0].status).toBe("success");
    expect(
      simulator.submits.filter((submit) => submit.text === settings.stopReply && submit.destination.endsWith(handset.slice(1))),
    ).toHaveLength(1);
    // The number stays opted out: the reply was the one message allowed to it.
    expect(await db().optOut.count({ where: { accountId, number: handset } })).toBe(1);

    // A second STOP changes nothing and is not answered.
    await originate(accountId, handset, number, "stop");
    await originate(accountId, handset, number, "START");
    const startReply = await waitFor(() => db().message.findFirst({ where: { accountId, body: settings.startReply } }), "the start reply");
    expect((await waitForFinal([startReply.id]))[0].status).toBe("success");

    const messages = await db().message.findMany({ where: { accountId } });
    expect(messages.map((message) => message.body).sort()).toEqual([settings.startReply, settings.stopReply].sort());
    const holds = await db().ledgerEntry.findMany({ where: { accountId, kind: "hold" }, orderBy: { id: "asc" } });
    expect(holds.map((hold) => [hold.messageId, hold.actor])).toEqual([
      [stopReply.id, CONFIRMATION_ACTOR],
      [startReply.id, CONFIRMATION_ACTOR],
    ]);
    expect(holds.every((hold) => hold.amount < 0n)).toBe(true);
    const after = await db().account.findUniqueOrThrow({ where: { id: accountId } });
    expect(after.balance).toBe(1_000_000n + holds[0].amount + holds[1].amount);
    await expectLedgerBalanced(accountId);
  });

  it("replies from the account's first approved sender id when the inbound number is not one, with the default text", async () => {
    const accountId = await createSendingAccount();
    const number = "+263780000303";
    const handset = "+263771115553";
    await assignInboundNumber({ accountId, number, operator: null, actor: "test" });
    const defaults = await readOptOutSettings(accountId);
    await saveOptOutSettings({ accountId, ...defaults, confirm: true, actor: "test" });

    await originate(accountId, handset, number, "Unsubscribe");
    const reply = await waitFor(() => db().message.findFirst({ where: { accountId } }), "the reply");
    expect(reply).toMatchObject({ to: handset, senderId: SENDER, body: DEFAULT_STOP_REPLY });
    expect(await db().ledgerEntry.count({ where: { accountId, messageId: reply.id, kind: "hold" } })).toBe(1);
  });

  it("sends no reply when confirmations are off", async () => {
    const accountId = await createSendingAccount();
    const number = "+263780000304";
    const handset = "+263771115554";
    await assignInboundNumber({ accountId, number, operator: null, actor: "test" });

    await originate(accountId, handset, number, "STOP");
    await waitFor(() => db().optOut.findFirst({ where: { accountId, number: handset } }), "the opt-out");
    await originate(accountId, handset, number, "START");
    await waitFor(async () => (await db().optOut.count({ where: { accountId } })) === 0, "the removal");
    expect(await db().message.count({ where: { accountId } })).toBe(0);
    expect(await db().ledgerEntry.count({ where: { accountId, kind: "hold" } })).toBe(0);
  });
});

describe("confirmation replies to the sandbox", () => {
  it("answers a keyword that came through the sandbox as test traffic: not held against the balance", async () => {
    const accountId = await createSendingAccount();
    const number = "+263780000305";
    const handset = "+263771115555";
    await assignInboundNumber({ accountId, number, operator: null, actor: "test" });
    await saveOptOutSettings({ accountId, stopKeywords: "", startKeywords: "", confirm: true, ...settings, actor: "test" });

    await queueInboundSimulation({ accountId, from: handset, to: number, message: "STOP" });
    const reply = await waitFor(() => db().message.findFirst({ where: { accountId } }), "the reply");
    expect(reply).toMatchObject({ to: handset, body: settings.stopReply, test: true });
    expect((await waitForFinal([reply.id]))[0].status).toBe("success");
    expect(await db().ledgerEntry.count({ where: { accountId, kind: "hold" } })).toBe(0);
    expect((await db().account.findUniqueOrThrow({ where: { id: accountId } })).balance).toBe(1_000_000n);
  });
});
