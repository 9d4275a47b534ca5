// A carrier's primary bind and its standbys (SMPP_<CARRIER>_MODE=failover): one of them is active
// and only the active one's route claims messages. A standby takes over once the primary has been
// unbound for failoverAfterMs (the first standby bound then, in the configured order); the primary
// takes its traffic back once it has stayed bound for givebackHoldMs. A standby that loses its own
// bind hands over at once to the primary if it is bound, else to another bound standby. The choice
// is this process's: each dispatcher decides from its own binds.
import type { Logger } from "@/lib/log";
import type { CarrierConnection } from "@/lib/smpp/carrier-connection";

export type FailoverOptions = { failoverAfterMs: number; givebackHoldMs: number; logger: Logger };

export class FailoverBinds {
  private activeIndex = 0;
  private readonly createdAt = Date.now();

  constructor(
    /** The primary first, then the standbys in order. */
    private readonly connections: CarrierConnection[],
    private readonly options: FailoverOptions,
  ) {}

  /** Whether this bind is the one to send over now (re-evaluated on every call). */
  isActive(connection: CarrierConnection, now = Date.now()): boolean {
    return this.active(now) === connection;
  }

  /** The bind to send over now. */
  active(now = Date.now()): CarrierConnection {
    const [primary, ...standbys] = this.connections;
    const primaryLink = primary.link;
    const current = this.connections[this.activeIndex];
    if (this.activeIndex === 0) {
      if (primaryLink.state === "bound") return primary;
      const unboundSince = (primaryLink.lastBoundAt ?? new Date(this.createdAt)).getTime();
      if (now - unboundSince < this.options.failoverAfterMs) return primary;
      const standby = standbys.find((connection) => connection.isBound);
      return standby ? this.switchTo(standby, "primary down: a standby takes over") : primary;
    }
    const primaryUpFor = primaryLink.state === "bound" ? now - primaryLink.since.getTime() : -1;
    if (primaryUpFor >= this.options.givebackHoldMs) return this.switchTo(primary, "primary bound again: it takes its traffic back");
    if (current.isBound) return current;
    if (primaryUpFor >= 0) return this.switchTo(primary, "standby down: the primary, bound, takes over");
    const other = standbys.find((connection) => connection.isBound);
    return other ? this.switchTo(other, "standby down: another standby takes over") : current;
  }

  private switchTo(connection: CarrierConnection, why: string): CarrierConnection {
    const from = this.connections[this.activeIndex];
    this.activeIndex = this.connections.indexOf(connection);
    this.options.logger.warn({ carrier: connection.config.operator, from: from.link.host, to: connection.link.host }, why);
    return connection;
  }
}
