// One SMPP 3.4 transceiver bind to a carrier's SMSC: connects and binds, keeps the link alive with
// enquire_link, reconnects with backoff, sends submit_sm within a window of outstanding requests at
// no more than the carrier's TPS over any second, and hands delivery receipts to the caller.
import net from "node:net";
import type { Logger } from "@/lib/log";
import { describeAcceptance } from "@/lib/messages/message-timeline";
import { describeCarrier, type CarrierConfig } from "./carrier-config";
import type { SubmitSmFields } from "./build-submit-parts";
import { isTemporaryStatus, statusName, STATUS } from "./command-status";
import { receiptFromDeliverSm, type DeliveryReceipt } from "./parse-receipt";
import { isMobileOriginated, mobileOriginatedFromDeliverSm, type MobileOriginated } from "./mobile-originated";
import { COMMAND, encodeBind, encodeHeaderOnly, encodeIdResponse, encodeShortMessage, responseCommandId, type Pdu } from "./pdu";
import { SmppRequestError, SmppSession } from "./smpp-session";
import { ThroughputLimiter } from "./throughput-limiter";

export type SubmitOutcome =
  | { kind: "accepted"; carrierMessageIds: string[]; response: string }
  /**
   * carrierStatus: the submit_sm_resp status, or null when the carrier never answered (no bind, timeout).
   * notSent: nothing of the message left (there was no bind), so the attempt does not count.
   * bindLost: the bind dropped before the carrier answered its first part; it goes back to the queue
   * as notSent does, to go out over whichever bind is up.
   * expired: never offered to the carrier, its validity had passed.
   * partlyAccepted: the carrier accepted an earlier part before refusing this one.
   */
  | {
      kind: "rejected";
      temporary: boolean;
      response: string;
      carrierStatus: number | null;
      notSent?: boolean;
      bindLost?: boolean;
      expired?: boolean;
      partlyAccepted?: boolean;
    };

/** binding: connecting or bind requested; backing-off: waiting for the next try after a failure or a drop. */
export type BindState = "bound" | "binding" | "backing-off" | "stopped";

export type LinkState = {
  state: BindState;
  /** When the bind entered this state. */
  since: Date;
  /** When the next connection attempt is due (backing-off only). */
  nextTryAt: Date | null;
  /** When the bind was last up, null when it never was. */
  lastBoundAt: Date | null;
  host: string;
  windowUsed: number;
  windowSize: number;
  tps: number;
};

export type CarrierConnectionOptions = {
  /** Stores a receipt; a throw answers the SMSC with a temporary error so that it sends it again. */
  onReceipt: (receipt: DeliveryReceipt, connection: CarrierConnection) => Promise<void>;
  /**
   * Stores a mobile-originated message (or one part of it); a throw answers the SMSC with a
   * temporary error so that it sends it again. Without it such a deliver_sm is acknowledged and dropped.
   */
  onMobileOriginated?: (message: MobileOriginated, connection: CarrierConnection) => Promise<void>;
  logger: Logger;
  enquireLinkMs?: number;
  responseTimeoutMs?: number;
  /** How long a submit waits for a bind before failing as temporary. */
  bindWaitMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** The pacing of submits; binds used together share their carrier's. Default: one of this bind's own at config.tps. */
  limiter?: ThroughputLimiter;
};

/** Throttled answers retried inside the connection (pausing all sends) before the message goes back to the queue. */
const THROTTLE_RETRIES = 5;
const THROTTLE_PAUSE_MS = 100;
/** Stricter than the carrier's second so that network jitter does not push a burst over its limit. */
const PACING_WINDOW_MS = 1020;
/** Sends spread evenly over the window: at most a hundredth of the cap in any hundredth of it. */
const PACING_SLICES = 100;
const UNBIND_WAIT_MS = 2000;

/** The pacing of a carrier's submits at its tps, for binds that share it. */
export function createCarrierLimiter(tps: number): ThroughputLimiter {
  return new ThroughputLimiter(tps, PACING_WINDOW_MS, PACING_SLICES);
}
const INTERFACE_VERSION_34 = 0x34;

class TemporaryFailure extends Error {
  constructor(
    message: string,
    /** True when the request never left (no bind): the carrier cannot have seen it. */
    readonly notSent = false,
    /** True when the bind dropped while the request waited for its answer. */
    readonly bindLost = false,
  ) {
    super(message);
  }
}

export class CarrierConnection {
  private session: SmppSession | null = null;
  private bound = false;
  private stopping = false;
  private state: BindState = "binding";
  private stateSince = new Date();
  private nextTryAt: Date | null = null;
  private lastBoundAt: Date | null = null;
  private reconnectDelayMs: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private enquireTimer: NodeJS.Timeout | undefined;
  private readonly limiter: ThroughputLimiter;
  private readonly waitingForBind = new Set<() => void>();
  private windowUsed = 0;
  private throttledAnswers = 0;
  private readonly windowWaiters: (() => void)[] = [];
  private readonly settings: Required<Omit<CarrierConnectionOptions, "onReceipt" | "onMobileOriginated" | "logger" | "limiter">>;
  private readonly log: Logger;

  constructor(
    readonly config: CarrierConfig,
    private readonly options: CarrierConnectionOptions,
  ) {
    this.settings = {
      enquireLinkMs: options.enquireLinkMs ?? 30_000,
      responseTimeoutMs: options.responseTimeoutMs ?? 10_000,
      bindWaitMs: options.bindWaitMs ?? 5_000,
      reconnectMinMs: options.reconnectMinMs ?? 250,
      reconnectMaxMs: options.reconnectMaxMs ?? 30_000,
    };
    this.reconnectDelayMs = this.settings.reconnectMinMs;
    this.limiter = options.limiter ?? createCarrierLimiter(config.tps);
    this.log = options.logger.child({ carrier: config.operator, smsc: describeCarrier(config) });
  }

  get isBound(): boolean {
    return this.bound;
  }

  /** What the operator's page and /metrics show of this bind. */
  get link(): LinkState {
    return {
      state: this.state,
      since: this.stateSince,
      nextTryAt: this.nextTryAt,
      lastBoundAt: this.bound ? new Date() : this.lastBoundAt,
      host: `${this.config.host}:${this.config.port}`,
      windowUsed: this.windowUsed,
      windowSize: this.config.window,
      tps: this.tps,
    };
  }

  /** Submits per second this process sends over the bind at most. */
  get tps(): number {
    return this.limiter.limit;
  }

  /**
   * The carrier's tps is its cap over every process dispatching to it: with `dispatchers` of them,
   * this process paces its submits at its share (binds used together share one limiter).
   */
  shareThroughput(dispatchers: number): void {
    this.limiter.setLimit(Math.max(1, Math.floor(this.config.tps / Math.max(1, dispatchers))));
  }

  private enter(state: BindState, nextTryAt: Date | null = null): void {
    if (this.state === "bound" && state !== "bound") this.lastBoundAt = new Date();
    if (this.state !== state) this.stateSince = new Date();
    this.state = state;
    this.nextTryAt = nextTryAt;
  }

  /** ESME_RTHROTTLED answers since the start, retried in place or not. */
  get throttledTotal(): number {
    return this.throttledAnswers;
  }

  /** Submits waiting for a window slot or in flight. */
  get busy(): number {
    return this.windowUsed + this.windowWaiters.length;
  }

  start(): void {
    this.connect();
  }

  /** Sends every part in order; the first refusal stops the message. */
  async submitMessage(parts: SubmitSmFields[]): Promise<SubmitOutcome> {
    const carrierMessageIds: string[] = [];
    for (const part of parts) {
      let response: Pdu;
      try {
        response = await this.submitPart(part);
      } catch (error) {
        if (error instanceof TemporaryFailure) {
          const first = carrierMessageIds.length === 0;
          const notSent = error.notSent && first;
          const bindLost = error.bindLost && first;
          return {
            kind: "rejected",
            temporary: true,
            response: error.message,
            carrierStatus: null,
            ...(notSent ? { notSent } : {}),
            ...(bindLost ? { bindLost } : {}),
          };
        }
        throw error;
      }
      if (response.status !== STATUS.ESME_ROK) {
        const status = response.status;
        return {
          kind: "rejected",
          temporary: isTemporaryStatus(status),
          response: `${statusName(status)} (0x${status.toString(16).padStart(8, "0")})`,
          carrierStatus: status,
          ...(carrierMessageIds.length > 0 ? { partlyAccepted: true } : {}),
        };
      }
      carrierMessageIds.push(response.id ?? "");
    }
    return { kind: "accepted", carrierMessageIds, response: describeAcceptance(carrierMessageIds) };
  }

  /** Unbinds (bounded wait) and closes; no reconnect afterwards. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.enter("stopped");
    clearTimeout(this.reconnectTimer);
    clearInterval(this.enquireTimer);
    for (const wake of this.waitingForBind) wake();
    const session = this.session;
    if (!session) return;
    if (this.bound) {
      await Promise.race([
        this.request(session, "unbind", (sequence) => encodeHeaderOnly(COMMAND.unbind, sequence)).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, UNBIND_WAIT_MS)),
      ]);
    }
    await new Promise<void>((resolve) => {
      if (session.socket.destroyed) return resolve();
      session.socket.once("close", () => resolve());
      session.destroy();
    });
  }

  private async submitPart(fields: SubmitSmFields): Promise<Pdu> {
    await this.acquireWindow();
    try {
      for (let throttled = 0; ; throttled++) {
        const session = await this.boundSession();
        await this.limiter.take();
        const response = await this.request(session, "submit_sm", (sequence) => encodeShortMessage(COMMAND.submit_sm, sequence, fields));
        if (response.status !== STATUS.ESME_RTHROTTLED) return response;
        this.throttledAnswers++;
        if (throttled >= THROTTLE_RETRIES) return response;
        this.limiter.pause(THROTTLE_PAUSE_MS * 2 ** throttled);
      }
    } finally {
      this.releaseWindow();
    }
  }

  private async acquireWindow(): Promise<void> {
    if (this.windowUsed < this.config.window) {
      this.windowUsed++;
      return;
    }
    await new Promise<void>((resolve) => this.windowWaiters.push(resolve));
  }

  private releaseWindow(): void {
    const next = this.windowWaiters.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else this.windowUsed--;
  }

  private async boundSession(): Promise<SmppSession> {
    if (!this.bound && !this.stopping) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, this.settings.bindWaitMs);
        function wake() {
          clearTimeout(timer);
          resolve();
        }
        this.waitingForBind.add(wake);
      });
    }
    if (!this.bound || !this.session) throw new TemporaryFailure(this.stopping ? "connection stopping" : "no bind to the carrier", true);
    return this.session;
  }

  /** Sends a request PDU and resolves with its response; a lost link or a timeout is temporary. */
  private async request(session: SmppSession, command: string, encode: (sequence: number) => Buffer): Promise<Pdu> {
    try {
      return await session.request(encode, this.settings.responseTimeoutMs);
    } catch (error) {
      if (!(error instanceof SmppRequestError)) throw error;
      if (error.reason === "timeout") throw new TemporaryFailure(`no ${command}_resp within ${this.settings.responseTimeoutMs} ms`);
      throw new TemporaryFailure("connection to the carrier lost", false, true);
    }
  }

  private connect(): void {
    if (this.stopping) return;
    this.enter("binding");
    const socket = net.connect({ host: this.config.host, port: this.config.port });
    const session = new SmppSession(socket, {
      onRequest: (pdu) => this.onRequest(session, pdu),
      onProtocolError: (error) => this.log.warn({ err: error.message }, "SMPP protocol error; reconnecting"),
    });
    this.session = session;
    const bindTimer = setTimeout(() => {
      this.log.warn("no bind within the response timeout; reconnecting");
      session.destroy();
    }, this.settings.responseTimeoutMs);

    socket.on("connect", () => {
      const bind = {
        system_id: this.config.systemId,
        password: this.config.password,
        system_type: this.config.systemType,
        interface_version: INTERFACE_VERSION_34,
      };
      this.request(session, "bind_transceiver", (sequence) => encodeBind(COMMAND.bind_transceiver, sequence, bind)).then(
        (response) => {
          clearTimeout(bindTimer);
          if (response.status !== STATUS.ESME_ROK) {
            this.log.error({ status: statusName(response.status) }, "bind refused");
            session.destroy();
            return;
          }
          this.onBound(session);
        },
        () => session.destroy(),
      );
    });
    socket.on("error", (error: Error) => this.log.warn({ err: error.message }, "SMPP connection error"));
    socket.on("close", () => {
      clearTimeout(bindTimer);
      this.onClosed(session);
    });
  }

  private onRequest(session: SmppSession, pdu: Pdu): void {
    switch (pdu.command) {
      case "deliver_sm":
        return void this.onDeliverSm(session, pdu);
      case "enquire_link":
        return void session.send(encodeHeaderOnly(COMMAND.enquire_link_resp, pdu.sequence));
      case "unbind":
        session.send(encodeHeaderOnly(COMMAND.unbind_resp, pdu.sequence));
        return session.close();
      default:
        session.send(encodeHeaderOnly(responseCommandId(pdu.commandId), pdu.sequence, STATUS.ESME_RINVCMDID));
    }
  }

  private onBound(session: SmppSession): void {
    this.bound = true;
    this.enter("bound");
    this.reconnectDelayMs = this.settings.reconnectMinMs;
    this.log.info("bound (transceiver)");
    for (const wake of this.waitingForBind) wake();
    this.waitingForBind.clear();
    clearInterval(this.enquireTimer);
    this.enquireTimer = setInterval(() => {
      this.request(session, "enquire_link", (sequence) => encodeHeaderOnly(COMMAND.enquire_link, sequence)).catch(() => {
        this.log.warn("enquire_link unanswered; reconnecting");
        session.destroy();
      });
    }, this.settings.enquireLinkMs);
  }

  private onClosed(session: SmppSession): void {
    if (session !== this.session) return;
    const wasBound = this.bound;
    this.bound = false;
    this.session = null;
    clearInterval(this.enquireTimer);
    if (this.stopping) return;
    const delay = Math.round(this.reconnectDelayMs * (0.8 + Math.random() * 0.4));
    if (wasBound) this.log.warn({ reconnectInMs: delay }, "connection lost");
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, this.settings.reconnectMaxMs);
    this.enter("backing-off", new Date(Date.now() + delay));
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  /** Receipts and mobile-originated messages are acknowledged after they are stored, so a crash before that gets them resent. */
  private async onDeliverSm(session: SmppSession, pdu: Pdu): Promise<void> {
    const receipt = pdu.message ? receiptFromDeliverSm(pdu.message) : null;
    if (!receipt) {
      if (pdu.message && isMobileOriginated(pdu.message) && this.options.onMobileOriginated) return this.onMobileOriginated(session, pdu);
      this.log.info({ esmClass: pdu.message?.esm_class }, "deliver_sm that is not a receipt acknowledged and ignored");
      session.send(encodeIdResponse(COMMAND.deliver_sm_resp, pdu.sequence, STATUS.ESME_ROK, ""));
      return;
    }
    try {
      await this.options.onReceipt(receipt, this);
      session.send(encodeIdResponse(COMMAND.deliver_sm_resp, pdu.sequence, STATUS.ESME_ROK, ""));
    } catch (error) {
      this.log.error({ err: error, carrierMessageId: receipt.messageId }, "receipt not stored; asking the SMSC to resend");
      session.send(encodeIdResponse(COMMAND.deliver_sm_resp, pdu.sequence, STATUS.ESME_RX_T_APPN, ""));
    }
  }

  private async onMobileOriginated(session: SmppSession, pdu: Pdu): Promise<void> {
    try {
      await this.options.onMobileOriginated!(mobileOriginatedFromDeliverSm(pdu.message!), this);
      session.send(encodeIdResponse(COMMAND.deliver_sm_resp, pdu.sequence, STATUS.ESME_ROK, ""));
    } catch (error) {
      this.log.error({ err: error }, "inbound message not stored; asking the SMSC to resend");
      session.send(encodeIdResponse(COMMAND.deliver_sm_resp, pdu.sequence, STATUS.ESME_RX_T_APPN, ""));
    }
  }
}
