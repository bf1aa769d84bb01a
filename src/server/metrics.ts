import type { CommandFailedEvent, CommandSucceededEvent, MongoClient } from "mongodb";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { PipelineObserver, WebhookAttemptResult } from "../engine/context.js";
import { settledWithin } from "../engine/settled-within.js";
import { REACHABILITY_TIMEOUT_MS } from "../engine/store/database.js";

/** How a request came in: the REST paths, or one of the RPC protocols. */
export type RequestProtocol = "rest" | "connect" | "grpc" | "grpc-web";

/** Values read from the database when Prometheus scrapes (never on the request path). */
export interface ScrapeSources {
  /** How far the scheduler is behind, in ms (null: it never ran). */
  schedulerLagMs(): Promise<number | null>;
  /** Admin batches of events not completed. */
  batchBacklog(): Promise<number>;
  /** Webhook deliveries ready to attempt. */
  webhookQueueDepth(): Promise<number>;
  /** Requests being served now (this one included). */
  requestsInFlight(): number;
}

export interface ServiceMetrics {
  registry: Registry;
  /** Handed to the pipeline (ServiceContext.observer). */
  observer: PipelineObserver;
  /** A request answered (or abandoned by its client: status 499). */
  requestFinished(route: string, protocol: RequestProtocol, status: number, seconds: number): void;
  /** Times every database command of this client (it must be created with `monitorCommands: true`). */
  watchCommands(client: MongoClient): void;
  /** The Prometheus text exposition. */
  render(): Promise<{ contentType: string; body: string }>;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const DB_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
const PROTOCOLS: readonly RequestProtocol[] = ["rest", "connect", "grpc", "grpc-web"];

/**
 * A gauge read from the database, or NaN (Prometheus' "unknown") when the database fails or does not
 * answer in time: the scrape still answers, with every other series, when they matter most.
 */
function databaseReading(read: () => Promise<number>): Promise<number> {
  return settledWithin(
    read().catch(() => NaN),
    REACHABILITY_TIMEOUT_MS, // the health probes' own bound
    NaN,
  );
}

interface RequestSeries {
  count: { inc(): void };
  duration: { observe(value: number): void };
}

/**
 * The service's Prometheus metrics, in a registry of its own (several services may run in one
 * process, as in the tests). Label values are bounded: routes are REST templates or RPC method
 * names (never raw paths), statuses are HTTP codes, database commands are command names. The
 * request path allocates nothing here once a series exists: series are cached per route, protocol
 * and status, and what needs the database is read only when Prometheus scrapes.
 */
export function createMetrics(sources: ScrapeSources): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "gamification_requests_total",
    help: "Requests answered, by route (REST template or RPC method), protocol and HTTP status (gRPC codes as Connect maps them; 499: the client went away)",
    labelNames: ["route", "protocol", "status"] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: "gamification_request_duration_seconds",
    help: "Time from a request's arrival to its answer's end, by route, protocol and status",
    labelNames: ["route", "protocol", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: "gamification_requests_in_flight",
    help: "Requests being served now, the scrape included",
    registers: [registry],
    collect() {
      this.set(sources.requestsInFlight());
    },
  });
  const events = new Counter({
    name: "gamification_events_total",
    help: "Metric events applied, or replayed for a repeated idempotency key (nothing applied again), by source (api, batch)",
    labelNames: ["result", "source"] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: "gamification_webhook_deliveries_total",
    help: "Webhook delivery turns by result: delivered, retrying (an attempt failed, a retry is scheduled), failed (no retry left), gone (410: endpoint disabled), skipped (endpoint disabled or deleted), deferred (signing secret unreadable here)",
    labelNames: ["result"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "gamification_webhook_queue_depth",
    help: "Webhook deliveries ready to attempt now (retries not yet due are not counted)",
    registers: [registry],
    async collect() {
      this.set(await databaseReading(() => sources.webhookQueueDepth()));
    },
  });
  new Gauge({
    name: "gamification_scheduler_lag_seconds",
    help: "How far the scheduler of time-driven work is behind: from the end of the first minute it has not processed to now (0: caught up)",
    registers: [registry],
    async collect() {
      this.set((await databaseReading(async () => (await sources.schedulerLagMs()) ?? 0)) / 1000);
    },
  });
  new Gauge({
    name: "gamification_event_batch_backlog",
    help: "Admin batches of metric events accepted and not completed yet",
    registers: [registry],
    async collect() {
      this.set(await databaseReading(() => sources.batchBacklog()));
    },
  });
  const commandDuration = new Histogram({
    name: "gamification_db_command_duration_seconds",
    help: "Database command latency as the driver measures it, by command name",
    labelNames: ["command"] as const,
    buckets: DB_BUCKETS,
    registers: [registry],
  });
  const commandFailures = new Counter({
    name: "gamification_db_command_failures_total",
    help: "Database commands that failed, by command name",
    labelNames: ["command"] as const,
    registers: [registry],
  });

  // Series children, created once per label combination.
  const requestSeries = new Map<string, Array<Map<number, RequestSeries>>>();
  const eventSeries = {
    applied: { api: events.labels("applied", "api"), batch: events.labels("applied", "batch") },
    replayed: { api: events.labels("replayed", "api"), batch: events.labels("replayed", "batch") },
  };
  const webhookSeries = new Map<WebhookAttemptResult, { inc(): void }>();
  const commandSeries = new Map<string, { observe(value: number): void }>();

  const series = (route: string, protocol: RequestProtocol, status: number): RequestSeries => {
    let byProtocol = requestSeries.get(route);
    if (!byProtocol) requestSeries.set(route, (byProtocol = PROTOCOLS.map(() => new Map<number, RequestSeries>())));
    const byStatus = byProtocol[PROTOCOLS.indexOf(protocol)]!;
    let found = byStatus.get(status);
    if (!found) {
      const labels = [route, protocol, String(status)] as const;
      byStatus.set(status, (found = { count: requests.labels(...labels), duration: requestDuration.labels(...labels) }));
    }
    return found;
  };

  const commandFinished = (event: CommandSucceededEvent | CommandFailedEvent, failed: boolean) => {
    let child = commandSeries.get(event.commandName);
    if (!child) commandSeries.set(event.commandName, (child = commandDuration.labels(event.commandName)));
    child.observe(event.duration / 1000);
    if (failed) commandFailures.labels(event.commandName).inc();
  };

  return {
    registry,
    observer: {
      eventRecorded(kind, source) {
        eventSeries[kind][source].inc();
      },
      webhookAttempted(result) {
        let child = webhookSeries.get(result);
        if (!child) webhookSeries.set(result, (child = webhookDeliveries.labels(result)));
        child.inc();
      },
    },
    requestFinished(route, protocol, status, seconds) {
      const found = series(route, protocol, status);
      found.count.inc();
      found.duration.observe(seconds);
    },
    watchCommands(client) {
      client.on("commandSucceeded", (event) => commandFinished(event, false));
      client.on("commandFailed", (event) => commandFinished(event, true));
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
