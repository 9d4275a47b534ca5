// Structured JSON logs. Every request's lines carry its request id (lib/api/request-log.ts); the redact list
// is the last line of defence for secrets, which code must not log in the first place.
import pino from "pino";
import { getLogLevel } from "@/lib/env";

export const logger = pino({
  level: getLogLevel(),
  base: { service: "tumira" },
  redact: {
    paths: [
      "authorization",
      "*.authorization",
      "headers.authorization",
      "token",
      "*.token",
      "password",
      "*.password",
      "secret",
      "*.secret",
    ],
    censor: "[redacted]",
  },
});

export type Logger = pino.Logger;
