// GET /metrics with HTTP_PROCESSES > 1. Each process counts in its own registry (lib/metrics.ts):
// the workers count requests and accepted messages, the primary the dispatcher's and webhooks'
// counters. The worker that receives /metrics asks the primary over IPC; the primary takes a
// snapshot of every listening worker's registry and of its own and merges them with prom-client's
// AggregatorRegistry.aggregate (counters and histograms summed per label set). A replaced worker's
// counts start again from zero, which Prometheus reads as a counter reset.
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type Registry } from "prom-client";
import { metrics } from "@/lib/metrics";

type Snapshot = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;
type MetricsMessage =
  | { type: "tumira:metrics:collect"; id: number }
  | { type: "tumira:metrics:collected"; id: number; text?: string; error?: string }
  | { type: "tumira:metrics:snapshot"; id: number }
  | { type: "tumira:metrics:snapshot-taken"; id: number; snapshot: Snapshot };

/** How long the primary waits for a worker's snapshot (a stuck worker must not take /metrics down). */
const SNAPSHOT_TIMEOUT_MS = 2_000;
/** How long a worker waits for the primary's merged answer. */
const COLLECT_TIMEOUT_MS = 5_000;

let nextId = 0;

function isMetricsMessage(message: unknown): message is MetricsMessage {
  return typeof message === "object" && message !== null && String((message as { type?: unknown }).type).startsWith("tumira:metrics:");
}

/** The Prometheus text of this process, or of the whole cluster when this process is a cluster worker. */
export async function readMetrics(): Promise<string> {
  return cluster.isWorker ? requestClusterMetrics() : metrics().registry.metrics();
}

/** Worker side: hands this process's registry to the primary whenever it asks. Call before listening. */
export function answerMetricsSnapshots(): void {
  process.on("message", (message: unknown) => {
    if (!isMetricsMessage(message) || message.type !== "tumira:metrics:snapshot") return;
    void metrics()
      .registry.getMetricsAsJSON()
      .then((snapshot) => send({ type: "tumira:metrics:snapshot-taken", id: message.id, snapshot }));
  });
}

function send(message: MetricsMessage): void {
  process.send?.(message);
}

function requestClusterMetrics(): Promise<string> {
  const id = nextId++;
  const reply = awaitReply(process, id, "tumira:metrics:collected", COLLECT_TIMEOUT_MS);
  send({ type: "tumira:metrics:collect", id });
  return reply.then((message) => {
    if (!message) throw new Error("the primary did not answer the metrics request");
    if (message.text === undefined) throw new Error(`the primary could not collect metrics: ${message.error}`);
    return message.text;
  });
}

type Reply<Type extends MetricsMessage["type"]> = Extract<MetricsMessage, { type: Type }>;
type MessageSource = Pick<NodeJS.EventEmitter, "on" | "off">;

/** The reply of that type and id from source, or null after timeoutMs or once source emits `giveUpOn`. */
function awaitReply<Type extends MetricsMessage["type"]>(
  source: MessageSource,
  id: number,
  type: Type,
  timeoutMs: number,
  giveUpOn?: string,
): Promise<Reply<Type> | null> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (isMetricsMessage(message) && message.type === type && message.id === id) finish(message as Reply<Type>);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    const onGiveUp = () => finish(null);
    const finish = (reply: Reply<Type> | null) => {
      clearTimeout(timer);
      source.off("message", onMessage);
      if (giveUpOn) source.off(giveUpOn, onGiveUp);
      resolve(reply);
    };
    source.on("message", onMessage);
    if (giveUpOn) source.on(giveUpOn, onGiveUp);
  });
}

/** Primary side: answers the workers' /metrics requests with the merged registries of the cluster. */
export function serveClusterMetrics(listeningWorkers: () => Worker[]): void {
  cluster.on("message", (worker, message: unknown) => {
    if (!isMetricsMessage(message) || message.type !== "tumira:metrics:collect") return;
    collectClusterMetrics(listeningWorkers()).then(
      (text) => worker.send({ type: "tumira:metrics:collected", id: message.id, text } satisfies MetricsMessage),
      (error: Error) => worker.send({ type: "tumira:metrics:collected", id: message.id, error: error.message } satisfies MetricsMessage),
    );
  });
}

async function collectClusterMetrics(workers: Worker[]): Promise<string> {
  const snapshots = await Promise.all([metrics().registry.getMetricsAsJSON(), ...workers.map(takeSnapshot)]);
  return AggregatorRegistry.aggregate(snapshots.filter((snapshot) => snapshot !== null)).metrics();
}

/** One worker's registry, or null if it does not answer in time (it is dying or stuck). */
async function takeSnapshot(worker: Worker): Promise<Snapshot | null> {
  const id = nextId++;
  const reply = awaitReply(worker, id, "tumira:metrics:snapshot-taken", SNAPSHOT_TIMEOUT_MS, "exit");
  worker.send({ type: "tumira:metrics:snapshot", id } satisfies MetricsMessage);
  return (await reply)?.snapshot ?? null;
}
