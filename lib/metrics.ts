// Prometheus metrics of this process (GET /metrics). Counters are per process; Prometheus sums them
// across servers, and with HTTP_PROCESSES > 1 /metrics merges the processes of one server
// (lib/metrics-cluster.ts).
import client from "prom-client";

const globalForMetrics = globalThis as unknown as { tumiraMetrics?: ReturnType<typeof createMetrics> };

function createMetrics() {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new client.Counter({
      name: "tumira_http_requests_total",
      help: "HTTP API requests by route, method and status",
      labelNames: ["route", "method", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new client.Histogram({
      name: "tumira_http_request_duration_seconds",
      help: "HTTP API request latency by route, method and status",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    httpRequestsAborted: new client.Counter({
      name: "tumira_http_requests_aborted_total",
      help: "HTTP API requests whose client left before the end of the body, by route and method",
      labelNames: ["route", "method"] as const,
      registers: [registry],
    }),
    messagesAccepted: new client.Counter({
      name: "tumira_messages_accepted_total",
      help: "Messages accepted by the API",
      registers: [registry],
    }),
    messagesDispatched: new client.Counter({
      name: "tumira_messages_dispatched_total",
      help: "Messages accepted by a carrier (submit_sm_resp OK)",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    messagesDelivered: new client.Counter({
      name: "tumira_messages_delivered_total",
      help: "Messages with a DELIVRD receipt",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    messagesFailed: new client.Counter({
      name: "tumira_messages_failed_total",
      help: "Messages that ended failed",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    // Carrier links, set by the dispatcher every few seconds (lib/delivery/dispatcher.ts), per bind:
    // bind is its host:port, role primary, standby or shared. Queue gauges read the shared queue:
    // every worker reports the same value (aggregate with max).
    carrierBindUp: new client.Gauge({
      name: "tumira_carrier_bind_up",
      help: "1 while this process's bind to the carrier is up (also when paused), else 0",
      labelNames: ["operator", "bind", "role"] as const,
      registers: [registry],
    }),
    carrierBindActive: new client.Gauge({
      name: "tumira_carrier_bind_active",
      help: "1 while the bind is one the carrier's messages go to (a standby only while it stands in for its primary)",
      labelNames: ["operator", "bind", "role"] as const,
      registers: [registry],
    }),
    carrierBindState: new client.Gauge({
      name: "tumira_carrier_bind_state",
      help: "1 for the state this process's bind to the carrier is in (bound, binding, backing-off, paused, down, stopped)",
      labelNames: ["operator", "bind", "role", "state"] as const,
      registers: [registry],
    }),
    carrierPaused: new client.Gauge({
      name: "tumira_carrier_paused",
      help: "1 while an operator has paused the carrier",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    carrierWindowUsed: new client.Gauge({
      name: "tumira_carrier_window_used",
      help: "submit_sm sent and not yet answered on this process's bind",
      labelNames: ["operator", "bind", "role"] as const,
      registers: [registry],
    }),
    carrierWindowSize: new client.Gauge({
      name: "tumira_carrier_window_size",
      help: "The bind's window: submit_sm unanswered at most",
      labelNames: ["operator", "bind", "role"] as const,
      registers: [registry],
    }),
    carrierSentLastMinute: new client.Gauge({
      name: "tumira_carrier_sent_last_minute",
      help: "Messages the carrier accepted from this process over the last minute",
      labelNames: ["operator", "bind", "role"] as const,
      registers: [registry],
    }),
    carrierQueueDepth: new client.Gauge({
      name: "tumira_carrier_queue_depth",
      help: "Live messages queued for the carrier, per priority (the shared queue; the same from every worker)",
      labelNames: ["operator", "priority"] as const,
      registers: [registry],
    }),
    carrierOldestQueuedSeconds: new client.Gauge({
      name: "tumira_carrier_oldest_queued_seconds",
      help: "Age of the live message first in line for the carrier, per priority, 0 when none (the same from every worker)",
      labelNames: ["operator", "priority"] as const,
      registers: [registry],
    }),
    carrierReceiptsAwaited: new client.Gauge({
      name: "tumira_carrier_receipts_awaited",
      help: "Live messages the carrier accepted in the last hour whose receipt has not come yet, summed over every worker's reports (the same from every worker)",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    carrierSubmitLatency: new client.Histogram({
      name: "tumira_carrier_submit_latency_seconds",
      help: "Time from the API's acceptance of a live message to the carrier's acceptance of it",
      labelNames: ["operator"] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers: [registry],
    }),
    receiptLatency: new client.Histogram({
      name: "tumira_carrier_receipt_latency_seconds",
      help: "Time from the API's acceptance of a live message to its last DELIVRD receipt",
      labelNames: ["operator"] as const,
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
      registers: [registry],
    }),
    carrierThrottled: new client.Counter({
      name: "tumira_carrier_throttled_total",
      help: "ESME_RTHROTTLED answers from the carrier (retried in place or not)",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    carrierRefused: new client.Counter({
      name: "tumira_carrier_refused_total",
      help: "Live submits the carrier refused or never answered (temporary or permanent)",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    receiptsTimedOut: new client.Counter({
      name: "tumira_receipts_timed_out_total",
      help: "Carrier-accepted messages settled as sent because no receipt came within RECEIPT_TIMEOUT_HOURS",
      labelNames: ["operator"] as const,
      registers: [registry],
    }),
    webhookAttempts: new client.Counter({
      name: "tumira_webhook_attempts_total",
      help: "Webhook delivery attempts by result",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
  };
}

export function metrics() {
  globalForMetrics.tumiraMetrics ??= createMetrics();
  return globalForMetrics.tumiraMetrics;
}
