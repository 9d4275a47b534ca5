// An SMPP 3.4 SMSC that plays the three carriers (system_id econet, netone, telecel): binds as
// transmitter, receiver or transceiver with configured credentials, answers submit_sm with hex
// message ids, refuses beyond its TPS with ESME_RTHROTTLED, and sends a delivery receipt after a
// delay. Outcomes follow the recipient's last digits (simulated-outcomes.ts). Receipts that find no
// bound receiver, or are not acknowledged, are kept and sent again, as a real SMSC does.
import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import smpp from "smpp";
import type { Logger } from "@/lib/log";
import { operators } from "@/lib/carriers/operators";
import { SIMULATOR_PASSWORD } from "@/lib/smpp/carrier-config";
import { STATUS } from "@/lib/smpp/command-status";
import { formatReceiptText, STATE_OF_STAT, type ReceiptStat } from "@/lib/smpp/parse-receipt";
import { ThroughputLimiter } from "@/lib/smpp/throughput-limiter";
import { batchWritesThisTick } from "@/lib/smpp/batch-writes";
import { simulatedOutcome } from "./simulated-outcomes";

export type SimulatedSubmit = {
  systemId: string;
  /** Which bind it came over (numbered from 1 in order of binding). */
  sessionNumber: number;
  /** The id answered in submit_sm_resp, or null when the submit was refused. */
  messageId: string | null;
  status: number;
  source: string;
  destination: string;
  dataCoding: number;
  text: string;
  /** Concatenation header of a part of a long message. */
  part: { reference: number; total: number; number: number } | null;
};

export type SmscSimulatorOptions = {
  port: number;
  host?: string;
  /** submit_sm accepted per second per system_id; beyond it ESME_RTHROTTLED. */
  tps: number;
  dlrDelayMs: number;
  /** system_id → password; default: the three carriers with SIMULATOR_PASSWORD. */
  credentials?: Record<string, string>;
  onSubmit?: (submit: SimulatedSubmit) => void;
  logger: Logger;
};

export type SmscSimulator = { port: number; stop: () => Promise<void> };

type BindMode = "transmitter" | "receiver" | "transceiver";
type Binding = { systemId: string; mode: BindMode; sessionNumber: number };
type PendingReceipt = { systemId: string; fields: Record<string, unknown>; preferred: smpp.Session };

const RECEIPT_RETRY_MS = 1000;
const ERR_OF_STAT: Partial<Record<ReceiptStat, string>> = { DELIVRD: "000", UNDELIV: "001", REJECTD: "002", EXPIRED: "003" };

export async function startSmscSimulator(options: SmscSimulatorOptions): Promise<SmscSimulator> {
  const credentials = options.credentials ?? Object.fromEntries(operators.map((operator) => [operator, SIMULATOR_PASSWORD]));
  const log = options.logger.child({ component: "smsc-simulator" });
  const bindings = new Map<smpp.Session, Binding>();
  const limiters = new Map<string, ThroughputLimiter>();
  const throttledOnce = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const undelivered: PendingReceipt[] = [];
  /** Receipts sent on a session and not yet answered: sent again elsewhere if it closes. */
  const awaitingAnswer = new Map<smpp.Session, Set<PendingReceipt>>();
  // Random start so that two simulators (or restarts) do not hand out the same ids.
  let nextId = crypto.randomInt(0x1000_0000, 0x7000_0000);
  let sessions = 0;

  let stopped = false;
  const later = (ms: number, work: () => void) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      work();
    }, ms);
    timers.add(timer);
  };

  // Receipts wait out the delay in the order they fall due (the delay is the same for all); one timer
  // sends every receipt due by then, so receipts due together leave in one write.
  const dueReceipts: { dueAt: number; send: () => void }[] = [];
  let receiptTimerArmed = false;
  const armReceiptTimer = () => {
    receiptTimerArmed = true;
    later(Math.max(0, dueReceipts[0].dueAt - Date.now()), sendDueReceipts);
  };
  function sendDueReceipts(): void {
    receiptTimerArmed = false;
    const now = Date.now();
    let due = 0;
    while (due < dueReceipts.length && dueReceipts[due].dueAt <= now) dueReceipts[due++].send();
    dueReceipts.splice(0, due);
    if (dueReceipts.length > 0) armReceiptTimer();
  }
  const afterReceiptDelay = (send: () => void) => {
    dueReceipts.push({ dueAt: Date.now() + options.dlrDelayMs, send });
    if (!receiptTimerArmed) armReceiptTimer();
  };

  const canReceive = (binding: Binding | undefined, systemId: string) => binding?.systemId === systemId && binding.mode !== "transmitter";

  function sendReceipt(receipt: PendingReceipt): void {
    const target = canReceive(bindings.get(receipt.preferred), receipt.systemId)
      ? receipt.preferred
      : [...bindings].find(([, binding]) => canReceive(binding, receipt.systemId))?.[0];
    if (target) batchWritesThisTick(target.socket);
    if (!target || !target.send(new smpp.PDU("deliver_sm", receipt.fields), onAnswer)) {
      undelivered.push(receipt);
      return;
    }
    const waiting = awaitingAnswer.get(target) ?? new Set<PendingReceipt>();
    awaitingAnswer.set(target, waiting.add(receipt));
    function onAnswer(response: smpp.PDU) {
      waiting.delete(receipt);
      if (response.command_status !== STATUS.ESME_ROK) later(RECEIPT_RETRY_MS, () => sendReceipt(receipt));
    }
  }

  function flushUndelivered(systemId: string): void {
    const waiting = undelivered.filter((receipt) => receipt.systemId === systemId);
    if (waiting.length === 0) return;
    undelivered.splice(0, undelivered.length, ...undelivered.filter((receipt) => receipt.systemId !== systemId));
    for (const receipt of waiting) sendReceipt(receipt);
  }

  function onBind(session: smpp.Session, pdu: smpp.PDU, mode: BindMode): void {
    if (bindings.has(session)) return void session.send(pdu.response({ command_status: STATUS.ESME_RALYBND }));
    const expected = credentials[pdu.system_id];
    if (expected === undefined) return void session.send(pdu.response({ command_status: STATUS.ESME_RINVSYSID }));
    if (expected !== pdu.password) return void session.send(pdu.response({ command_status: STATUS.ESME_RINVPASWD }));
    bindings.set(session, { systemId: pdu.system_id, mode, sessionNumber: ++sessions });
    session.send(pdu.response({ system_id: "TUMIRASIM" }));
    log.debug({ systemId: pdu.system_id, mode }, "bound");
    if (mode !== "transmitter") flushUndelivered(pdu.system_id);
  }

  function onSubmit(session: smpp.Session, pdu: smpp.PDU): void {
    const binding = bindings.get(session);
    if (!binding || binding.mode === "receiver") return void session.send(pdu.response({ command_status: STATUS.ESME_RINVBNDSTS }));
    const destination = String(pdu.destination_addr);
    const outcome = simulatedOutcome(destination);
    let limiter = limiters.get(binding.systemId);
    if (!limiter) limiters.set(binding.systemId, (limiter = new ThroughputLimiter(options.tps)));

    let status: number = STATUS.ESME_ROK;
    if (outcome.submit === "invalid-destination") status = STATUS.ESME_RINVDSTADR;
    else if (outcome.submit === "system-error") status = STATUS.ESME_RSYSERR;
    else if (outcome.submit === "throttle-once" && !throttledOnce.has(destination)) {
      throttledOnce.add(destination);
      status = STATUS.ESME_RTHROTTLED;
    } else if (!limiter.tryTake()) status = STATUS.ESME_RTHROTTLED;

    const messageId = status === STATUS.ESME_ROK ? (nextId++).toString(16) : null;
    batchWritesThisTick(session.socket);
    session.send(messageId ? pdu.response({ message_id: messageId }) : pdu.response({ command_status: status }));

    const udh: Buffer | undefined = pdu.short_message?.udh?.[0];
    const submitted: SimulatedSubmit = {
      systemId: binding.systemId,
      sessionNumber: binding.sessionNumber,
      messageId,
      status,
      source: String(pdu.source_addr),
      destination,
      dataCoding: pdu.data_coding ?? 0,
      text: String(pdu.short_message?.message ?? ""),
      part: udh && udh[0] === 0x00 ? { reference: udh[2], total: udh[3], number: udh[4] } : null,
    };
    options.onSubmit?.(submitted);
    if (!messageId || !outcome.receipt || !(pdu.registered_delivery & 0x03)) return;

    const stat = outcome.receipt;
    const submittedAt = new Date();
    afterReceiptDelay(() => {
      const reportedId = outcome.textOnlyDecimalReceipt ? BigInt(`0x${messageId}`).toString(10) : messageId;
      const text = formatReceiptText({ id: reportedId, stat, err: ERR_OF_STAT[stat] ?? "000", submittedAt, doneAt: new Date(), text: submitted.text });
      const fields: Record<string, unknown> = {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: destination,
        dest_addr_ton: pdu.source_addr_ton,
        dest_addr_npi: pdu.source_addr_npi,
        destination_addr: submitted.source,
        esm_class: 0x04,
        data_coding: 0,
        short_message: Buffer.from(text, "ascii"),
        ...(outcome.textOnlyDecimalReceipt ? {} : { receipted_message_id: messageId, message_state: STATE_OF_STAT[stat] }),
      };
      sendReceipt({ systemId: binding.systemId, fields, preferred: session });
    });
  }

  const server = smpp.createServer({}, (session) => {
    session.on("error", (error: Error) => log.debug({ err: error.message }, "session error"));
    session.on("close", () => {
      bindings.delete(session);
      const unanswered = awaitingAnswer.get(session) ?? [];
      awaitingAnswer.delete(session);
      if (!stopped) for (const receipt of unanswered) sendReceipt(receipt);
    });
    session.on("pdu", (pdu: smpp.PDU) => {
      if (pdu.isResponse()) return;
      switch (pdu.command) {
        case "bind_transceiver":
          return onBind(session, pdu, "transceiver");
        case "bind_transmitter":
          return onBind(session, pdu, "transmitter");
        case "bind_receiver":
          return onBind(session, pdu, "receiver");
        case "submit_sm":
          return onSubmit(session, pdu);
        case "enquire_link":
          return void session.send(pdu.response());
        case "unbind":
          bindings.delete(session);
          session.send(pdu.response(), () => session.close());
          return;
        default:
          session.send(pdu.response({ command_status: 0x03 /* ESME_RINVCMDID */ }));
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port, tps: options.tps, dlrDelayMs: options.dlrDelayMs }, "SMSC simulator listening");

  return {
    port,
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of [...server.sessions]) session.destroy();
      await closed;
    },
  };
}
