import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import * as admin from "../../../gen/gamification/v1/admin_service_pb.js";
import type { ServiceContext } from "../../../engine/context.js";
import { invalidArgument } from "../../../engine/domain/errors.js";
import { readEventBatch, submitEventBatch } from "../event-batches.js";
import type { BatchStatus, EventBatchStatus } from "../store/batch-records.js";
import { userUpsertFromProto } from "../../../transport/convert.js";
import { enumMapping } from "../../../transport/enum-mapping.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";
import { setRestStatus } from "../../../transport/rest-status.js";

const statuses = enumMapping<BatchStatus, admin.MetricEventBatchStatus>({
  queued: admin.MetricEventBatchStatus.QUEUED,
  processing: admin.MetricEventBatchStatus.PROCESSING,
  completed: admin.MetricEventBatchStatus.COMPLETED,
});

/**
 * Admin batch ingestion (part of AdminService): submit a batch, read its status. `submitted` tells
 * this instance's worker to look for work at once instead of at its next poll.
 */
export function createEventBatchMethods(
  services: ServiceContext,
  submitted: () => void = () => {},
): Pick<ScopedService<typeof admin.AdminService>, "createMetricEventBatch" | "getMetricEventBatch"> {
  return {
    async createMetricEventBatch(req: admin.CreateMetricEventBatchRequest, scope: CallScope) {
      // Read nowhere here: a client sending one would believe its resubmission protected.
      if (scope.ctx.requestHeader.has("idempotency-key")) {
        throw invalidArgument("A batch takes an idempotencyKey on each event; the Idempotency-Key header is not read by this call, so leave it out");
      }
      const events = req.events.map((e) => ({
        metricKey: e.key,
        user: userUpsertFromProto(e.user!.id, e.user),
        value: e.value!,
        attributes: e.attributes,
        timestamp: e.timestamp ? timestampDate(e.timestamp) : undefined,
        idempotencyKey: e.idempotencyKey === "" ? undefined : e.idempotencyKey,
      }));
      const { id, accepted } = await submitEventBatch(services, scope.tenantId, events);
      submitted();
      setRestStatus(scope.ctx, 202);
      return { accepted, batchId: id };
    },
    async getMetricEventBatch(req: admin.GetMetricEventBatchRequest, scope: CallScope) {
      return { batch: batchToProto(await readEventBatch(services, scope.tenantId, req.batchId)) };
    },
  };
}

function batchToProto(b: EventBatchStatus): admin.MetricEventBatch {
  return create(admin.MetricEventBatchSchema, {
    id: b._id,
    status: statuses.toProto(b.status),
    total: b.total,
    processed: b.applied + b.replayed + b.failed,
    applied: b.applied,
    replayed: b.replayed,
    failed: b.failed,
    errors: b.errors.map((e) => create(admin.MetricEventBatchErrorSchema, e)),
    attempts: b.attempts,
    created: timestampFromDate(b.created),
    updated: timestampFromDate(b.updated),
    completed: b.completed ? timestampFromDate(b.completed) : undefined,
  });
}
