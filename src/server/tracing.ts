import { context, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { NodeSDK } from "@opentelemetry/sdk-node";
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from "mongodb";
import type { ServiceTracing } from "./service.js";

/**
 * OpenTelemetry tracing, loaded by main.ts (dynamic import) only when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set: without it, none of this code or the SDK is even loaded. Spans are made by hand, one per
 * request (its route, protocol and status as attributes) and one per database command (from the
 * driver's command monitoring, a child of the request's span when the command runs for a request),
 * and exported over OTLP/HTTP by the SDK's batch processor (the SDK's `OTEL_*` variables apply).
 */
export interface Tracing extends ServiceTracing {
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

export function startTracing(): Tracing {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? "gamification-service",
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [],
    // Traces only: metrics are Prometheus' (GET /metrics), logs are pino's on stdout.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const tracer = trace.getTracer("gamification-service");
  return {
    requests: {
      trace(req, res, info, serve) {
        const path = (req.url ?? "").split("?")[0]!;
        const span = tracer.startSpan(`${req.method} ${path}`, {
          kind: SpanKind.SERVER,
          attributes: { "http.request.method": req.method ?? "", "url.path": path, "gamification.request_id": info.requestId },
        });
        info.traceId = span.spanContext().traceId;
        res.once("close", () => {
          if (info.route !== null) span.updateName(info.route);
          span.setAttributes({
            "http.route": info.route ?? "unmatched",
            "rpc.system": info.protocol === "rest" ? "rest" : info.protocol,
            "http.response.status_code": res.writableFinished ? res.statusCode : 499,
          });
          if (info.rpcCode !== null && info.rpcCode !== 0) span.setAttribute("rpc.connect_rpc.error_code", info.rpcCode);
          if (!res.writableFinished || res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        });
        context.with(trace.setSpan(context.active(), span), serve);
      },
    },
    watchCommands(client: MongoClient) {
      // The driver's request IDs are unique per client; a span lives from the command's start to its answer.
      const open = new Map<number, Span>();
      client.on("commandStarted", (event: CommandStartedEvent) => {
        const span = tracer.startSpan(`mongodb ${event.commandName}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            "db.system.name": "mongodb",
            "db.operation.name": event.commandName,
            "db.namespace": event.databaseName,
            "server.address": event.address,
          },
        });
        open.set(event.requestId, span);
      });
      const finish = (event: CommandSucceededEvent | CommandFailedEvent, failed: boolean) => {
        const span = open.get(event.requestId);
        if (!span) return;
        open.delete(event.requestId);
        if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: (event as CommandFailedEvent).failure?.message });
        span.end();
      };
      client.on("commandSucceeded", (event) => finish(event, false));
      client.on("commandFailed", (event) => finish(event, true));
    },
    shutdown: () => sdk.shutdown(),
  };
}
