// A request's logger. Most requests log nothing, and pino's child() costs microseconds (it serialises
// its bindings), so a request's bindings (its id, then the key it authenticated) are kept here and
// given to pino with a line only when one is written. Requests log failures (error), load shed
// (warn) and, at debug level, one line each.
import { logger } from "@/lib/log";

type Level = "error" | "warn" | "debug";

export class RequestLog {
  constructor(private readonly bindings: Readonly<Record<string, unknown>>) {}

  /** The same request's logger with more bindings. */
  child(more: Readonly<Record<string, unknown>>): RequestLog {
    return new RequestLog(Object.assign({}, this.bindings, more));
  }

  error(details: object, message: string): void {
    this.write("error", details, message);
  }

  warn(details: object, message: string): void {
    this.write("warn", details, message);
  }

  debug(details: object, message: string): void {
    this.write("debug", details, message);
  }

  private write(level: Level, details: object, message: string): void {
    if (logger.isLevelEnabled(level)) logger[level](Object.assign({}, this.bindings, details), message);
  }
}
