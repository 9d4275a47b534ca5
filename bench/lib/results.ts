// The file `npm run bench` writes per run (bench/results/<start>-<scenarios>.json), which
// `npm run bench:report` reads back: one schema for both. The benchmark writes more than this (every
// field of its rows); what is named here is what the report relies on, and the writer is type-checked
// against it. A run of `--runs N` holds N results per scenario.
import { z } from "zod";

/** A figure the run could not take is NaN in the benchmark and null in the JSON. */
const figure = z.number().nullable();

const tableSchema = z.object({
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
  notes: z.array(z.string()).optional(),
});

const loadFigures = {
  requestsPerSecond: figure,
  p50Ms: figure,
  p99Ms: figure,
  /** Responses with status >= 400. */
  errorResponses: z.number(),
  /** Connect, read and write errors, and timeouts. */
  socketErrors: z.number(),
};

export const singleSendRowSchema = z.object({
  /** kannel: Kannel's sendsms; ceiling: Tumira's GET /api/ping; send: Tumira's POST /api/v1/sms. */
  kind: z.enum(["kannel", "ceiling", "send"]),
  competitor: z.string(),
  engine: z.string(),
  ...loadFigures,
  cpuMicrosPerRequest: figure,
  /** PostgreSQL's server processes over the same run; absent or null where not counted apart (SQLite). */
  databaseCpuMicrosPerRequest: figure.optional(),
  peakRssMb: figure,
});

export const bulkRowSchema = z.object({
  engine: z.string(),
  recipients: z.number(),
  /** Until the whole 202 response was read. */
  seconds: figure,
  /** The same rows inserted with the bare driver in one transaction. */
  rawSeconds: figure,
  ok: z.boolean(),
});

const peakMemorySchema = z.object({ peakRssMb: figure });

export const dispatchRowSchema = z.object({
  gateway: z.enum(["kannel", "tumira"]),
  competitor: z.string(),
  engine: z.string(),
  messages: z.number(),
  seconds: figure,
  messagesPerSecond: figure,
  cpuMicrosecondsPerMessage: figure,
  /** PostgreSQL's server processes over the same interval; absent or null where not counted apart (SQLite, Kannel). */
  databaseCpuMicrosecondsPerMessage: figure.optional(),
  peakRssMb: figure,
});

export const readRowSchema = z.object({
  /** read: GET /api/v1/sms/{id}; ceiling: GET /api/ping on the same server. */
  kind: z.enum(["read", "ceiling"]),
  engine: z.string(),
  endpoint: z.string(),
  ...loadFigures,
});

export const deliveryControlRowSchema = z.object({
  gateway: z.enum(["tumira", "kannel"]).default("tumira"),
  kind: z.enum(["priority", "fairness"]),
  engine: z.string(),
  messages: z.number(),
  p50Seconds: figure,
  p99Seconds: figure,
  maxSeconds: figure,
});

export const scenarioResultSchema = z.discriminatedUnion("scenario", [
  z.object({ scenario: z.literal("single"), tables: z.array(tableSchema), data: z.object({ rows: z.array(singleSendRowSchema) }) }),
  z.object({
    scenario: z.literal("bulk"),
    tables: z.array(tableSchema),
    data: z.object({ rows: z.array(bulkRowSchema), peakRssMb: z.record(z.string(), peakMemorySchema) }),
  }),
  z.object({ scenario: z.literal("dispatch"), tables: z.array(tableSchema), data: z.object({ rows: z.array(dispatchRowSchema) }) }),
  z.object({ scenario: z.literal("read"), tables: z.array(tableSchema), data: z.object({ rows: z.array(readRowSchema) }) }),
  z.object({
    scenario: z.literal("delivery-control"),
    tables: z.array(tableSchema),
    data: z.object({ rows: z.array(deliveryControlRowSchema) }),
  }),
]);

export const machineSchema = z.object({
  cpus: z.number(),
  cpuModel: z.string(),
  memoryGb: z.number(),
  os: z.string(),
  node: z.string(),
  /** The machine's 1, 5 and 15 minute load averages when the run started: how busy it was besides. */
  loadAverage: z.array(z.number()).optional(),
});

export const benchRunSchema = z.object({
  startedAt: z.iso.datetime(),
  machine: machineSchema,
  settings: z.object({
    engines: z.array(z.string()),
    durationSeconds: z.number(),
    connections: z.number(),
    dispatchCount: z.number(),
    processes: z.number(),
    /** Repetitions of every scenario in the run. */
    runs: z.number().int().min(1).default(1),
  }),
  results: z.array(scenarioResultSchema),
});

export type BenchTable = z.infer<typeof tableSchema>;
export type BenchMachine = z.infer<typeof machineSchema>;
export type BenchRun = z.infer<typeof benchRunSchema>;
export type ScenarioResult = z.infer<typeof scenarioResultSchema>;
export type ScenarioName = ScenarioResult["scenario"];
export type SingleSendRow = z.infer<typeof singleSendRowSchema>;
export type BulkRow = z.infer<typeof bulkRowSchema>;
export type DispatchRow = z.infer<typeof dispatchRowSchema>;
export type ReadRow = z.infer<typeof readRowSchema>;
export type DeliveryControlRow = z.infer<typeof deliveryControlRowSchema>;
