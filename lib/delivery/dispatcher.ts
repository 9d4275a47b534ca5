// The dispatcher: for each carrier (live and test traffic apart) it claims due messages, enough to
// keep the connection's send window full, submits them over the carrier's connection, and
// group-commits the answers. Expired leases of dead dispatchers are swept back to the queue.
// stop(): no new claims, in-flight submits get a bounded grace, unanswered claims are released.
// A route claims nothing while its connection has no bind (a carrier outage consumes no attempts),
// while it is a standby not in use (./failover-binds.ts), or, for live traffic, while an operator
// has paused its carrier (lib/carriers/carrier-pauses.ts). A carrier's binds used together are one
// route each: they claim from the same queue.
// Every few seconds it reports its live binds' state (./carrier-links.ts and /metrics).
import crypto from "node:crypto";
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@/lib/log";
import type { Operator } from "@/lib/carriers/operators";
import { createGroupCommit } from "@/lib/db/group-commit";
import { listCarrierPauses } from "@/lib/carriers/carrier-pauses";
import { metrics } from "@/lib/metrics";
import { buildSubmitParts, type SubmitSmFields } from "@/lib/smpp/build-submit-parts";
import type { CarrierConnection, SubmitOutcome } from "@/lib/smpp/carrier-connection";
import type { BindRole } from "@/lib/smpp/carrier-config";
import { claimMessages, releaseLeases, requeueExpiredLeases, type ClaimedMessage } from "./claim-messages";
import { recordDispatchOutcomes, type DispatchOutcome } from "./record-dispatch-outcomes";
import { enqueueScheduledMessages, expireQueuedMessages, EXPIRED_RESPONSE } from "./fail-queued-messages";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy";
import { acceptedAtOfId, HourStats, mergeMinutes, MinuteCounter, type ReceiptHours } from "./hour-stats";
import {
  countDispatchersPerCarrier,
  countReceiptsAwaited,
  readOtherWorkersBinds,
  readQueueStats,
  removeLinkReports,
  writeLinkReports,
  type LinkReport,
  linkStates,
  type LinkStateName,
} from "./carrier-links";

export type DispatchRoute = {
  operator: Operator;
  test: boolean;
  connection: CarrierConnection;
  role: BindRole;
  /** How reports and metrics name the bind: host:port (#2, #3 for more binds to the same one). */
  bind: string;
  /** Failover: whether this bind is the one in use now; absent, always. */
  isActive?: () => boolean;
};

export type DispatcherOptions = {
  routes: DispatchRoute[];
  /** The live receipts its process's receipt handler counts, reported with the binds. */
  receiptHours: ReceiptHours;
  logger: Logger;
  /** How long a claim stays with this process without an answer before others may take it. */
  leaseMs?: number;
  /** Idle wait between claims when the queue is empty. */
  pollMs?: number;
  retryPolicy?: RetryPolicy;
  /** Bound on waiting for in-flight submits at stop. */
  stopGraceMs?: number;
  /** How often the carriers' pauses are read again. */
  pauseCheckMs?: number;
  /** How often the live binds' state is written for the Carriers page and /metrics. */
  linkReportMs?: number;
  /** A bind not up for this long shows as down. */
  downAfterMs?: number;
  /** How often scheduled sends come due and expired ones fail (also while a carrier is unbound or paused). */
  queueSweepMs?: number;
};

const MAX_CLAIM = 500;
/** Claims held in memory, at most the carrier's cap sends over this long. */
const CLAIM_AHEAD_MS = 250;
/** An idle route's polls back off up to this many times pollMs: an empty claim still scans the queue. */
const MAX_IDLE_BACKOFF = 4;
const MAX_WRITE_BATCH = 200;
/** Answers waiting for their write, at most; claiming pauses above it (the database is behind). */
const MAX_UNRECORDED = 200;
const WRITE_RETRIES = 3;

export class Dispatcher {
  readonly owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;
  private stopping = false;
  private loops: Promise<void>[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Claims of each connection not yet answered by the carrier. */
  private readonly submittingBy = new Map<CarrierConnection, number>();
  private unrecorded = 0;
  /** Answers this dispatcher could not write: their claims are still held, and a carrier may have those messages. */
  private answersLost = false;
  private readonly sleepers = new Set<AbortController>();
  /** Routes idle after an empty claim. */
  private readonly idleSleepers = new Set<AbortController>();
  /** Route loops waiting for room to claim; woken when a submit is answered or an answer written. */
  private readonly roomWaiters = new Set<() => void>();
  /** Group commit: every answer that arrives while one batch is written goes into the next. */
  private readonly record = createGroupCommit<DispatchOutcome, void>((outcomes) => this.writeWithRetries(outcomes), MAX_WRITE_BATCH);
  private readonly settings: Required<Omit<DispatcherOptions, "routes" | "receiptHours" | "logger">>;
  private readonly log: Logger;
  /** Carriers whose live traffic an operator paused, as last read, and since when. */
  private paused = new Map<string, Date>();
  /** Resolves once the pauses have been read (or could not be): no route claims before. */
  private pausesRead: Promise<void> = Promise.resolve();
  private readonly sent = new Map<CarrierConnection, MinuteCounter>();
  private readonly hours = new Map<CarrierConnection, HourStats>();
  /** Each connection's throttled answers as last counted into its hour. */
  private readonly throttledSeen = new Map<CarrierConnection, number>();
  private readonly startedAt = new Date();

  constructor(private readonly options: DispatcherOptions) {
    this.settings = {
      leaseMs: options.leaseMs ?? 60_000,
      pollMs: options.pollMs ?? 250,
      retryPolicy: options.retryPolicy ?? DEFAULT_RETRY_POLICY,
      stopGraceMs: options.stopGraceMs ?? 10_000,
      pauseCheckMs: options.pauseCheckMs ?? 3_000,
      linkReportMs: options.linkReportMs ?? 5_000,
      downAfterMs: options.downAfterMs ?? 30_000,
      queueSweepMs: options.queueSweepMs ?? 1_000,
    };
    this.log = options.logger.child({ component: "dispatcher", owner: this.owner });
  }

  start(): void {
    this.pausesRead = this.readPauses();
    this.loops = [
      ...this.options.routes.map((route) => this.runRoute(route)),
      this.sweepExpiredLeases(),
      this.sweepQueue(),
      this.watchPauses(),
      this.reportLinks(),
    ];
    this.log.info({ routes: this.options.routes.map((route) => `${route.operator}${route.test ? " (test)" : ""}`) }, "dispatcher started");
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const sleeper of this.sleepers) sleeper.abort();
    this.wakeRoomWaiters();
    await Promise.all(this.loops);
    const graceOver = sleep(this.settings.stopGraceMs, "timeout" as const);
    const finished = await Promise.race([Promise.allSettled([...this.inFlight]).then(() => "done" as const), graceOver]);
    const released = await releaseLeases(this.owner, { submitsInFlight: finished === "timeout" || this.answersLost });
    await removeLinkReports(this.owner).catch((error) => this.log.warn({ err: error }, "could not remove the link reports"));
    if (finished === "timeout")
      this.log.warn({ stillInFlight: this.inFlight.size }, "stop grace over with submits in flight; they may be sent again");
    this.log.info({ released }, "dispatcher stopped; unsent claims released to the queue");
  }

  /**
   * Claims waiting for the carrier, per connection: twice the send window, so the window stays full
   * while the next claim is made, and a claim never waits long here (its lease is running). After a
   * crash, at most these and the answers not yet written are sent again. Never more than the
   * carrier's cap sends in CLAIM_AHEAD_MS: a claim is in queue order when it is taken, so a message
   * queued after it (a high-priority one) waits behind at most that much.
   */
  private capacity(connection: CarrierConnection): number {
    const withinCap = Math.max(1, Math.ceil((connection.tps * CLAIM_AHEAD_MS) / 1000));
    return Math.min(MAX_CLAIM, connection.config.window * 2, withinCap);
  }

  /**
   * Claims wait until a quarter of the capacity (half a window) is free: one claim statement per
   * batch of answers rather than per answer, while half a window of claims still waits for the
   * carrier, so the window stays full during the claim.
   */
  private async runRoute(route: DispatchRoute): Promise<void> {
    let idleMs = this.settings.pollMs;
    await this.pausesRead;
    while (!this.stopping) {
      if (!route.connection.isBound || this.isPaused(route) || !this.isActive(route)) {
        await this.pause(this.settings.pollMs);
        continue;
      }
      // Read each time: the connection's share of its carrier's cap follows the dispatchers reporting.
      const capacity = this.capacity(route.connection);
      const minClaim = Math.max(1, Math.floor(capacity / 4));
      const free = capacity - (this.submittingBy.get(route.connection) ?? 0);
      if (free < minClaim || this.unrecorded >= MAX_UNRECORDED) {
        await this.waitForRoom();
        continue;
      }
      let claimed: ClaimedMessage[];
      try {
        claimed = await claimMessages({
          owner: this.owner,
          operator: route.operator,
          test: route.test,
          limit: free,
          leaseMs: this.settings.leaseMs,
        });
      } catch (error) {
        this.log.error({ err: error }, "claim failed");
        await this.pause(1000);
        continue;
      }
      if (claimed.length === 0) {
        await this.pause(idleMs, this.idleSleepers);
        idleMs = Math.min(idleMs * 2, this.settings.pollMs * MAX_IDLE_BACKOFF);
      } else idleMs = this.settings.pollMs;
      for (const message of claimed) this.track(this.dispatch(route, message));
    }
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async dispatch(route: DispatchRoute, message: ClaimedMessage): Promise<void> {
    const startedAt = new Date();
    this.submittingBy.set(route.connection, (this.submittingBy.get(route.connection) ?? 0) + 1);
    let result: SubmitOutcome;
    try {
      result = await this.submit(route, message);
      if (!route.test) this.count(route, message, result, startedAt);
    } finally {
      this.submittingBy.set(route.connection, this.submittingBy.get(route.connection)! - 1);
      this.wakeRoomWaiters();
    }
    this.unrecorded++;
    try {
      await this.record({ message, owner: this.owner, startedAt, result });
    } finally {
      this.unrecorded--;
      this.wakeRoomWaiters();
    }
  }

  private waitForRoom(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.add(resolve));
  }

  private wakeRoomWaiters(): void {
    if (this.roomWaiters.size === 0) return;
    const waiters = [...this.roomWaiters];
    this.roomWaiters.clear();
    for (const wake of waiters) wake();
  }

  private async submit(route: DispatchRoute, message: ClaimedMessage): Promise<SubmitOutcome> {
    // Claimed once too often: it keeps dying with its dispatcher, so stop trying (fails, refunds).
    if (message.attempts > this.settings.retryPolicy.maxAttempts) {
      return { kind: "rejected", temporary: true, response: "no answer recorded after repeated attempts", carrierStatus: null };
    }
    // Its validity ran out while it was queued: never handed over (fails EXPIRED, refunds).
    const validityMs = message.expiresAt ? message.expiresAt.getTime() - Date.now() : null;
    if (validityMs !== null && validityMs < 1000) {
      return { kind: "rejected", temporary: false, response: EXPIRED_RESPONSE, carrierStatus: null, expired: true };
    }
    let parts: SubmitSmFields[];
    try {
      parts = buildSubmitParts(message, validityMs === null ? null : Math.floor(validityMs / 1000));
    } catch (error) {
      return { kind: "rejected", temporary: false, response: `cannot encode: ${(error as Error).message}`, carrierStatus: null };
    }
    try {
      return await route.connection.submitMessage(parts);
    } catch (error) {
      this.log.error({ err: error, messageId: message.id }, "submit failed unexpectedly");
      return { kind: "rejected", temporary: true, response: `internal error: ${(error as Error).message}`, carrierStatus: null };
    }
  }

  /** The claims stay leased when this gives up: when the lease expires they are sent again. */
  private async writeWithRetries(outcomes: DispatchOutcome[]): Promise<void[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { leaseLost } = await recordDispatchOutcomes(outcomes, this.settings.retryPolicy);
        if (leaseLost > 0) this.log.warn({ leaseLost }, "answers dropped: their lease had passed to another dispatcher");
        break;
      } catch (error) {
        if (attempt >= WRITE_RETRIES) {
          this.answersLost = true;
          this.log.error({ err: error, messages: outcomes.length }, "could not record carrier answers");
          break;
        }
        await sleep(500 * attempt);
      }
    }
    return outcomes.map(() => undefined);
  }

  private async sweepExpiredLeases(): Promise<void> {
    const every = Math.max(1000, Math.floor(this.settings.leaseMs / 4));
    while (!this.stopping) {
      try {
        const requeued = await requeueExpiredLeases();
        if (requeued > 0) this.log.warn({ requeued }, "expired leases returned to the queue");
      } catch (error) {
        this.log.error({ err: error }, "lease sweep failed");
      }
      await this.pause(every);
    }
  }

  /** Scheduled sends whose time has come join the queue; queued messages whose validity passed fail. */
  private async sweepQueue(): Promise<void> {
    while (!this.stopping) {
      try {
        const due = await enqueueScheduledMessages();
        const expired = await expireQueuedMessages();
        if (due > 0) this.wakeAll();
        if (expired > 0) this.log.info({ expired }, "queued messages expired: their validity passed");
      } catch (error) {
        this.log.error({ err: error }, "queue sweep failed");
      }
      await this.pause(this.settings.queueSweepMs);
    }
  }

  /** Idle routes claim at once instead of at the end of their backoff. */
  private wakeAll(): void {
    for (const sleeper of this.idleSleepers) sleeper.abort();
  }

  /** The live route's minute and hour, and the metrics that go with them. */
  private count(route: DispatchRoute, message: ClaimedMessage, result: SubmitOutcome, startedAt: Date): void {
    const labels = { operator: route.operator };
    if (result.kind === "accepted") {
      this.sentOver(route.connection).add();
      const acceptedAt = acceptedAtOfId(message.id);
      const latencyMs = acceptedAt === null ? null : Math.max(0, Date.now() - acceptedAt);
      this.hourOf(route.connection).sent(latencyMs, startedAt.getTime());
      if (latencyMs !== null) metrics().carrierSubmitLatency.observe(labels, latencyMs / 1000);
    } else if (!result.notSent) {
      this.hourOf(route.connection).refused();
      metrics().carrierRefused.inc(labels);
    }
  }

  private hourOf(connection: CarrierConnection): HourStats {
    let hour = this.hours.get(connection);
    if (!hour) this.hours.set(connection, (hour = new HourStats()));
    return hour;
  }

  /** Throttled answers since the last count go into the hour and the counter. */
  private countThrottles(route: DispatchRoute): void {
    const total = route.connection.throttledTotal;
    const fresh = total - (this.throttledSeen.get(route.connection) ?? 0);
    this.throttledSeen.set(route.connection, total);
    if (fresh <= 0) return;
    this.hourOf(route.connection).throttled(fresh);
    metrics().carrierThrottled.inc({ operator: route.operator }, fresh);
  }

  private isActive(route: DispatchRoute): boolean {
    return route.isActive?.() ?? true;
  }

  private isPaused(route: DispatchRoute): boolean {
    return !route.test && this.paused.has(route.operator);
  }

  private sentOver(connection: CarrierConnection): MinuteCounter {
    let counter = this.sent.get(connection);
    if (!counter) this.sent.set(connection, (counter = new MinuteCounter()));
    return counter;
  }

  /** Keeps the last pauses read when the database cannot be read. */
  private async readPauses(): Promise<void> {
    try {
      const pauses = await listCarrierPauses();
      const next = new Map(pauses.map((pause) => [pause.operator, pause.pausedAt]));
      for (const operator of next.keys())
        if (!this.paused.has(operator)) this.log.info({ carrier: operator }, "carrier paused: its messages stay queued");
      for (const operator of this.paused.keys()) if (!next.has(operator)) this.log.info({ carrier: operator }, "carrier resumed");
      this.paused = next;
    } catch (error) {
      this.log.error({ err: error }, "could not read the carriers' pauses");
    }
  }

  private async watchPauses(): Promise<void> {
    await this.pausesRead;
    while (!this.stopping) {
      await this.pause(this.settings.pauseCheckMs);
      if (!this.stopping) await this.readPauses();
    }
  }

  /** The live binds as the operator sees them: paused over the connection's state, down after a while unbound. */
  linkReports(now = new Date()): LinkReport[] {
    return this.options.routes
      .filter((route) => !route.test)
      .map((route, index, live) => {
        this.countThrottles(route);
        // This process's receipts of the carrier go with its first bind only, so the binds add up.
        const receipts =
          live.findIndex((other) => other.operator === route.operator) === index ? [this.options.receiptHours.of(route.operator)] : [];
        const link = route.connection.link;
        let state: LinkStateName = link.state;
        let since = link.since;
        const pausedAt = this.paused.get(route.operator);
        if (pausedAt && state !== "stopped") {
          state = "paused";
          since = pausedAt;
        } else if (state !== "bound" && state !== "stopped") {
          const unboundSince = link.lastBoundAt ?? this.startedAt;
          if (now.getTime() - unboundSince.getTime() >= this.settings.downAfterMs) {
            state = "down";
            since = unboundSince;
          }
        }
        return {
          operator: route.operator,
          bind: route.bind,
          role: route.role,
          active: this.isActive(route),
          state,
          since,
          nextTryAt: link.state === "backing-off" ? link.nextTryAt : null,
          host: link.host,
          windowUsed: link.windowUsed,
          windowSize: link.windowSize,
          tps: link.tps,
          sentLastMinute: this.sentOver(route.connection).total(now.getTime()),
          minutes: mergeMinutes([this.hourOf(route.connection), ...receipts].map((hour) => hour.minutes(now.getTime()))),
        };
      });
  }

  private async reportLinks(): Promise<void> {
    await this.pausesRead;
    while (!this.stopping) {
      try {
        const now = new Date();
        const peers = await readOtherWorkersBinds(this.owner, now);
        // The share first, so that the report gives the one in force.
        const dispatchers = countDispatchersPerCarrier(peers);
        for (const route of this.options.routes) if (!route.test) route.connection.shareThroughput(dispatchers.get(route.operator) ?? 1);
        const reports = this.linkReports(now);
        const m = metrics();
        for (const report of reports) {
          const labels = { operator: report.operator, bind: report.bind, role: report.role };
          m.carrierBindUp.set(labels, this.isBound(report) ? 1 : 0);
          m.carrierBindActive.set(labels, report.active ? 1 : 0);
          for (const state of linkStates) m.carrierBindState.set({ ...labels, state }, state === report.state ? 1 : 0);
          m.carrierWindowUsed.set(labels, report.windowUsed);
          m.carrierWindowSize.set(labels, report.windowSize);
          m.carrierSentLastMinute.set(labels, report.sentLastMinute);
        }
        for (const operator of new Set(reports.map((report) => report.operator)))
          m.carrierPaused.set({ operator }, this.paused.has(operator) ? 1 : 0);
        await writeLinkReports(this.owner, reports, now);
        for (const [operator, queue] of await readQueueStats()) {
          for (const [priority, stats] of Object.entries(queue.byPriority)) {
            m.carrierQueueDepth.set({ operator, priority }, stats.depth);
            m.carrierOldestQueuedSeconds.set(
              { operator, priority },
              stats.oldestReceivedAt ? Math.max(0, (now.getTime() - stats.oldestReceivedAt.getTime()) / 1000) : 0,
            );
          }
        }
        for (const [operator, awaited] of countReceiptsAwaited([...peers, ...reports])) m.carrierReceiptsAwaited.set({ operator }, awaited);
      } catch (error) {
        this.log.error({ err: error }, "could not report the carrier links");
      }
      await this.pause(this.settings.linkReportMs);
    }
  }

  private isBound(report: LinkReport): boolean {
    return this.options.routes.some(
      (route) => !route.test && route.operator === report.operator && route.bind === report.bind && route.connection.isBound,
    );
  }

  private async pause(ms: number, also?: Set<AbortController>): Promise<void> {
    if (this.stopping) return;
    const sleeper = new AbortController();
    this.sleepers.add(sleeper);
    also?.add(sleeper);
    await sleep(ms, undefined, { signal: sleeper.signal }).catch(() => undefined);
    this.sleepers.delete(sleeper);
    also?.delete(sleeper);
  }
}
