// An SMPP 3.4 SMSC that plays the three carriers (system_id econet, netone, telecel): binds as
// transmitter, receiver or transceiver with configured credentials, answers submit_sm with hex
// message ids, refuses beyond its TPS with ESME_RTHROTTLED, and sends a delivery receipt after a
// delay. Outcomes follow the recipient's last digits (simulated-outcomes.ts). Receipts that find no
// bound receiver, or are not acknowledged, are kept and sent again, as a real SMSC does. It may also
// listen on a second port, as a carrier's second host, and can drop the binds on one of its ports
// and refuse new ones there for a while, as a carrier losing one of its hosts does.
import crypto from "node:crypto";
import net, { type AddressInfo } from "node:net";
import type { Logger } from "@/lib/log";
import { operators } from "@/lib/carriers/operators";
import { SIMULATOR_PASSWORD } from "@/lib/smpp/carrier-config";
import { STATUS } from "@/lib/smpp/command-status";
import { formatReceiptText, STATE_OF_STAT, type ReceiptStat } from "@/lib/smpp/parse-receipt";
import {
  COMMAND,
  encodeHeaderOnly,
  encodeIdResponse,
  encodeShortMessage,
  responseCommandId,
  type Pdu,
  type ShortMessageFields,
} from "@/lib/smpp/pdu";
import { SmppSession } from "@/lib/smpp/smpp-session";
import { ThroughputLimiter } from "@/lib/smpp/throughput-limiter";
import { decodeGsm7, decodeUcs2, encodeGsm7, encodeUcs2, segmentMessage } from "@/lib/messages/segments";
import { parseMsisdn } from "@/lib/messages/msisdn";
import { simulatedOutcome } from "./simulated-outcomes";

export type SimulatedSubmit = {
  systemId: string;
  /** Which bind it came over (numbered from 1 in order of binding). */
  sessionNumber: number;
  /** The simulator's port the bind came in on. */
  port: number;
  /** The id answered in submit_sm_resp, or null when the submit was refused. */
  messageId: string | null;
  status: number;
  source: string;
  destination: string;
  dataCoding: number;
  text: string;
  /** Concatenation header of a part of a long message. */
  part: { reference: number; total: number; number: number } | null;
  /** The submit's validity_period as sent (empty: the carrier's default). */
  validityPeriod: string;
};

export type SmscSimulatorOptions = {
  port: number;
  host?: string;
  /** Also listen on this port (0: any free one) on the same host, as a carrier's second host. */
  secondPort?: number;
  /** submit_sm accepted per second per system_id; beyond it ESME_RTHROTTLED. */
  tps: number;
  dlrDelayMs: number;
  /** system_id → password; default: the three carriers with SIMULATOR_PASSWORD. */
  credentials?: Record<string, string>;
  onSubmit?: (submit: SimulatedSubmit) => void;
  logger: Logger;
};

export type SmscSimulator = {
  port: number;
  /** The second port it listens on, null when none. */
  secondPort: number | null;
  stop: () => Promise<void>;
  /**
   * Refuses (ESME_RBINDFAIL) or again accepts binds of a system_id, as a carrier under maintenance
   * does: on every port, or only on `port`.
   */
  refuseBinds: (systemId: string, refused: boolean, port?: number) => void;
  /**
   * Unbinds and closes every session bound as system_id (only those on `port` when given), as a carrier dropping
   * its links does, and refuses new binds there for refuseForMs; returns how many it closed.
   */
  dropBinds: (systemId: string, options?: { port?: number; refuseForMs?: number }) => number;
  /**
   * Originates a mobile message to a bind of systemId: segmented as a handset would (UDH, 8-bit
   * reference), each part a deliver_sm kept and sent again until a receiving bind acknowledges it.
   */
  originate: (input: { systemId: string; from: string; to: string; message: string }) => { parts: number };
  /** Sends one deliver_sm as given over a receiving bind of systemId; resolves with the deliver_sm_resp status. */
  deliver: (systemId: string, fields: ShortMessageFields) => Promise<number>;
};

/** The system_id an ESME binds as to originate mobile messages through a running simulator (`npm run smsc -- mo`). */
export const ORIGINATOR_SYSTEM_ID = "originator";

type BindMode = "transmitter" | "receiver" | "transceiver";
type Binding = { systemId: string; mode: BindMode; sessionNumber: number; port: number };
/** A deliver_sm waiting for a receiving bind to acknowledge it: a receipt, or a mobile-originated part. */
type PendingReceipt = { systemId: string; fields: ShortMessageFields; preferred: SmppSession | null };

const RECEIPT_RETRY_MS = 1000;
const ERR_OF_STAT: Partial<Record<ReceiptStat, string>> = { DELIVRD: "000", UNDELIV: "001", REJECTD: "002", EXPIRED: "003" };
/** How long a receipt waits for its deliver_sm_resp before it is treated as unanswered. */
const RECEIPT_ANSWER_TIMEOUT_MS = 30_000;
const ESM_CLASS_UDHI = 0x40;
const DATA_CODING_UCS2 = 0x08;

/** The text of a submitted part: its UDH (when esm_class says there is one) apart, decoded by data_coding. */
function splitShortMessage(fields: ShortMessageFields): { udh: Buffer | null; text: string } {
  const hasUdh = (fields.esm_class & ESM_CLASS_UDHI) !== 0 && fields.short_message.length > 0;
  const udh = hasUdh ? fields.short_message.subarray(0, 1 + fields.short_message[0]) : null;
  const payload = udh ? fields.short_message.subarray(udh.length) : fields.short_message;
  return { udh, text: fields.data_coding === DATA_CODING_UCS2 ? decodeUcs2(payload) : decodeGsm7(payload) };
}

export async function startSmscSimulator(options: SmscSimulatorOptions): Promise<SmscSimulator> {
  const credentials = options.credentials ?? {
    ...Object.fromEntries(operators.map((operator) => [operator, SIMULATOR_PASSWORD])),
    [ORIGINATOR_SYSTEM_ID]: SIMULATOR_PASSWORD,
  };
  const log = options.logger.child({ component: "smsc-simulator" });
  const bindings = new Map<SmppSession, Binding>();
  const limiters = new Map<string, ThroughputLimiter>();
  const throttledOnce = new Set<string>();
  /** "system_id" (every port) or "system_id@port". */
  const refusedBinds = new Set<string>();
  const refusalKey = (systemId: string, port?: number) => (port === undefined ? systemId : `${systemId}@${port}`);
  const timers = new Set<NodeJS.Timeout>();
  const undelivered: PendingReceipt[] = [];
  /** Receipts sent on a session and not yet answered: sent again elsewhere if it closes. */
  const awaitingAnswer = new Map<SmppSession, Set<PendingReceipt>>();
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
    const target =
      receipt.preferred && canReceive(bindings.get(receipt.preferred), receipt.systemId)
        ? receipt.preferred
        : [...bindings].find(([, binding]) => canReceive(binding, receipt.systemId))?.[0];
    if (!target || !target.writable) {
      undelivered.push(receipt);
      return;
    }
    const waiting = awaitingAnswer.get(target) ?? new Set<PendingReceipt>();
    awaitingAnswer.set(target, waiting.add(receipt));
    // Unanswered (the session closed, or no answer in 30 s): it stays among that session's
    // unanswered receipts, which its close handler sends again elsewhere.
    target
      .request((sequence) => encodeShortMessage(COMMAND.deliver_sm, sequence, receipt.fields), RECEIPT_ANSWER_TIMEOUT_MS)
      .then(
        (response) => {
          waiting.delete(receipt);
          if (response.status !== STATUS.ESME_ROK) later(RECEIPT_RETRY_MS, () => sendReceipt(receipt));
        },
        () => undefined,
      );
  }

  function flushUndelivered(systemId: string): void {
    const waiting = undelivered.filter((receipt) => receipt.systemId === systemId);
    if (waiting.length === 0) return;
    undelivered.splice(0, undelivered.length, ...undelivered.filter((receipt) => receipt.systemId !== systemId));
    for (const receipt of waiting) sendReceipt(receipt);
  }

  const answer = (session: SmppSession, request: Pdu, status: number, id = "") =>
    void session.send(encodeIdResponse(responseCommandId(request.commandId), request.sequence, status, id));

  function onBind(session: SmppSession, pdu: Pdu, mode: BindMode, port: number): void {
    if (bindings.has(session)) return answer(session, pdu, STATUS.ESME_RALYBND);
    const { system_id: systemId, password } = pdu.bind!;
    const expected = credentials[systemId];
    if (expected === undefined) return answer(session, pdu, STATUS.ESME_RINVSYSID);
    if (expected !== password) return answer(session, pdu, STATUS.ESME_RINVPASWD);
    if (refusedBinds.has(systemId) || refusedBinds.has(refusalKey(systemId, port))) return answer(session, pdu, STATUS.ESME_RBINDFAIL);
    bindings.set(session, { systemId, mode, sessionNumber: ++sessions, port });
    answer(session, pdu, STATUS.ESME_ROK, "TUMIRASIM");
    log.debug({ systemId, mode }, "bound");
    if (mode !== "transmitter") flushUndelivered(systemId);
  }

  function onSubmit(session: SmppSession, pdu: Pdu): void {
    const binding = bindings.get(session);
    if (!binding || binding.mode === "receiver") return answer(session, pdu, STATUS.ESME_RINVBNDSTS);
    const submit = pdu.message!;
    if (binding.systemId === ORIGINATOR_SYSTEM_ID) return onOriginatorSubmit(session, pdu);
    const destination = submit.destination_addr;
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
    answer(session, pdu, status, messageId ?? "");

    // A concatenation UDH: length 5, IEI 0x00 (8-bit reference), IE length 3, reference, total, number.
    const { udh, text } = splitShortMessage(submit);
    const submitted: SimulatedSubmit = {
      systemId: binding.systemId,
      sessionNumber: binding.sessionNumber,
      port: binding.port,
      messageId,
      status,
      source: submit.source_addr,
      destination,
      dataCoding: submit.data_coding,
      text,
      part: udh && udh.length >= 6 && udh[1] === 0x00 ? { reference: udh[3], total: udh[4], number: udh[5] } : null,
      validityPeriod: submit.validity_period ?? "",
    };
    options.onSubmit?.(submitted);
    if (!messageId || !outcome.receipt || !((submit.registered_delivery ?? 0) & 0x03)) return;

    const stat = outcome.receipt;
    const submittedAt = new Date();
    afterReceiptDelay(() => {
      const reportedId = outcome.textOnlyDecimalReceipt ? BigInt(`0x${messageId}`).toString(10) : messageId;
      const text = formatReceiptText({
        id: reportedId,
        stat,
        err: ERR_OF_STAT[stat] ?? "000",
        submittedAt,
        doneAt: new Date(),
        text: submitted.text,
      });
      const fields: ShortMessageFields = {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: destination,
        dest_addr_ton: submit.source_addr_ton,
        dest_addr_npi: submit.source_addr_npi,
        destination_addr: submitted.source,
        esm_class: 0x04,
        data_coding: 0,
        short_message: Buffer.from(text, "ascii"),
        ...(outcome.textOnlyDecimalReceipt ? {} : { receipted_message_id: messageId, message_state: STATE_OF_STAT[stat] }),
      };
      sendReceipt({ systemId: binding.systemId, fields, preferred: session });
    });
  }

  let nextReference = crypto.randomInt(0, 256);
  function originate(input: { systemId: string; from: string; to: string; message: string }): { parts: number } {
    const { encoding, parts } = segmentMessage(input.message);
    const reference = nextReference++ & 0xff;
    parts.forEach((text, index) => {
      const data = encoding === "ucs2" ? encodeUcs2(text) : encodeGsm7(text);
      const udh = parts.length > 1 ? Buffer.from([5, 0x00, 3, reference, parts.length, index + 1]) : Buffer.alloc(0);
      const fields: ShortMessageFields = {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: input.from.replace(/^\+/, ""),
        dest_addr_ton: /^\d{3,8}$/.test(input.to) ? 3 : 1,
        dest_addr_npi: 1,
        destination_addr: input.to.replace(/^\+/, ""),
        esm_class: parts.length > 1 ? ESM_CLASS_UDHI : 0,
        data_coding: encoding === "ucs2" ? DATA_CODING_UCS2 : 0,
        short_message: Buffer.concat([udh, data]),
      };
      sendReceipt({ systemId: input.systemId, fields, preferred: null });
    });
    log.debug({ systemId: input.systemId, parts: parts.length }, "mobile-originated message sent");
    return { parts: parts.length };
  }

  /**
   * A submit_sm from the originator bind becomes a mobile-originated message: source_addr the
   * handset, destination_addr the number it writes to, service_type the carrier (or, when blank, the
   * carrier of the handset's prefix).
   */
  function onOriginatorSubmit(session: SmppSession, pdu: Pdu): void {
    const submit = pdu.message!;
    const from = parseMsisdn(submit.source_addr);
    const systemId = submit.service_type || (from.ok ? from.recipient.operator : "");
    if (!credentials[systemId] || systemId === ORIGINATOR_SYSTEM_ID) return answer(session, pdu, STATUS.ESME_RINVSRCADR);
    const payload = submit.message_payload && submit.message_payload.length > 0 ? submit.message_payload : submit.short_message;
    const message = submit.data_coding === DATA_CODING_UCS2 ? decodeUcs2(payload) : decodeGsm7(payload);
    originate({ systemId, from: from.ok ? from.recipient.to : submit.source_addr, to: submit.destination_addr, message });
    answer(session, pdu, STATUS.ESME_ROK, (nextId++).toString(16));
  }

  function deliver(systemId: string, fields: ShortMessageFields): Promise<number> {
    const target = [...bindings].find(([, binding]) => canReceive(binding, systemId))?.[0];
    if (!target) return Promise.reject(new Error(`no receiving bind of ${systemId}`));
    return target
      .request((sequence) => encodeShortMessage(COMMAND.deliver_sm, sequence, fields), RECEIPT_ANSWER_TIMEOUT_MS)
      .then((response) => response.status);
  }

  const sessionsOpen = new Set<SmppSession>();
  function onRequest(session: SmppSession, pdu: Pdu, port: number): void {
    switch (pdu.command) {
      case "bind_transceiver":
        return onBind(session, pdu, "transceiver", port);
      case "bind_transmitter":
        return onBind(session, pdu, "transmitter", port);
      case "bind_receiver":
        return onBind(session, pdu, "receiver", port);
      case "submit_sm":
        return onSubmit(session, pdu);
      case "enquire_link":
        return void session.send(encodeHeaderOnly(COMMAND.enquire_link_resp, pdu.sequence));
      case "unbind":
        bindings.delete(session);
        session.send(encodeHeaderOnly(COMMAND.unbind_resp, pdu.sequence));
        return session.close();
      default:
        answer(session, pdu, STATUS.ESME_RINVCMDID);
    }
  }

  const onConnection = (socket: net.Socket) => {
    const port = socket.localPort ?? 0;
    const session: SmppSession = new SmppSession(socket, {
      onRequest: (pdu) => onRequest(session, pdu, port),
      onProtocolError: (error) => log.debug({ err: error.message }, "not SMPP; connection closed"),
    });
    sessionsOpen.add(session);
    socket.on("error", (error: Error) => log.debug({ err: error.message }, "session error"));
    socket.on("close", () => {
      sessionsOpen.delete(session);
      bindings.delete(session);
      const unanswered = awaitingAnswer.get(session) ?? [];
      awaitingAnswer.delete(session);
      if (!stopped) for (const receipt of unanswered) sendReceipt(receipt);
    });
  };

  const listen = async (wanted: number): Promise<net.Server> => {
    const server = net.createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(wanted, options.host ?? "127.0.0.1", () => resolve());
    });
    return server;
  };
  const servers = [await listen(options.port)];
  if (options.secondPort !== undefined) servers.push(await listen(options.secondPort));
  const [port, secondPort = null] = servers.map((server) => (server.address() as AddressInfo).port);
  log.info({ port, secondPort, tps: options.tps, dlrDelayMs: options.dlrDelayMs }, "SMSC simulator listening");

  const refuseBinds = (systemId: string, refused: boolean, onPort?: number) =>
    void (refused ? refusedBinds.add(refusalKey(systemId, onPort)) : refusedBinds.delete(refusalKey(systemId, onPort)));

  return {
    port,
    secondPort,
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
      for (const session of [...sessionsOpen]) session.destroy();
      await Promise.all(closed);
    },
    refuseBinds,
    dropBinds: (systemId, { port: onPort, refuseForMs } = {}) => {
      const bound = [...bindings]
        .filter(([, binding]) => binding.systemId === systemId && (onPort === undefined || binding.port === onPort))
        .map(([session]) => session);
      if (refuseForMs) {
        refuseBinds(systemId, true, onPort);
        later(refuseForMs, () => refuseBinds(systemId, false, onPort));
      }
      // Unbound at once, so nothing that arrives after the drop is taken; closed once what was
      // answered has been written, so nothing taken goes unanswered.
      for (const session of bound) {
        bindings.delete(session);
        session.close();
      }
      log.info({ systemId, port: onPort, closed: bound.length, refuseForMs }, "binds dropped");
      return bound.length;
    },
    originate,
    deliver,
  };
}
