import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import * as pb from "../../../gen/gamification/v1/webhook_admin_service_pb.js";
import type { ServiceContext } from "../../../engine/context.js";
import * as webhooks from "../webhook-admin.js";
import type { DeliveryStatus, WebhookDeliveryDocument, WebhookEndpointView } from "../store/webhook-store.js";
import { created, deleted, pageOf, updated } from "../../../transport/admin-answers.js";
import { enumMapping } from "../../../transport/enum-mapping.js";
import type { CallScope, ScopedService } from "../../../transport/guard.js";

const statuses = enumMapping<DeliveryStatus, pb.WebhookDeliveryStatus>({
  pending: pb.WebhookDeliveryStatus.PENDING,
  delivered: pb.WebhookDeliveryStatus.DELIVERED,
  failed: pb.WebhookDeliveryStatus.FAILED,
});

/** An endpoint as the API shows it; `secret` only when it was just created or rotated. */
function endpointToProto(e: WebhookEndpointView, secret?: string): pb.WebhookEndpoint {
  return create(pb.WebhookEndpointSchema, {
    id: e._id,
    url: e.url,
    description: e.description ?? undefined,
    eventTypes: e.eventTypes,
    enabled: e.enabled,
    disabledReason: e.disabledReason ?? undefined,
    secret,
    previousSecretExpires: e.previousSecretExpires ? timestampFromDate(e.previousSecretExpires) : undefined,
    created: timestampFromDate(e.created),
    updated: timestampFromDate(e.updated),
    referenceSignature: e.referenceSignature ?? false,
  });
}

function deliveryToProto(d: WebhookDeliveryDocument): pb.WebhookDelivery {
  return create(pb.WebhookDeliverySchema, {
    messageId: d.messageId,
    endpointId: d.endpointId,
    eventType: d.type,
    status: statuses.toProto(d.status),
    attemptCount: d.attemptCount,
    nextAttempt: d.status === "pending" && d.nextAttemptAt ? timestampFromDate(d.nextAttemptAt) : undefined,
    lastError: d.lastError ?? undefined,
    payload: JSON.parse(d.body) as JsonObject,
    attempts: d.attempts.map((a) =>
      create(pb.WebhookAttemptSchema, {
        at: timestampFromDate(a.at),
        durationMs: a.durationMs,
        responseStatus: a.responseStatus ?? undefined,
        succeeded: a.succeeded,
        error: a.error ?? undefined,
      }),
    ),
    created: timestampFromDate(d.created),
    updated: timestampFromDate(d.updated),
  });
}

/** WebhookAdminService; the guard has checked the admin key, the request rules and the tenant. */
export function createWebhookAdminMethods(services: ServiceContext): ScopedService<typeof pb.WebhookAdminService> {
  return {
    async createWebhookEndpoints(req: pb.CreateWebhookEndpointsRequest, scope: CallScope) {
      const drafts = req.endpoints.map((e) => ({
        url: e.url,
        description: e.description,
        eventTypes: e.eventTypes,
        enabled: e.enabled,
        referenceSignature: e.referenceSignature,
      }));
      return created(scope, await webhooks.createEndpoints(services, scope.tenantId, drafts), (c) => endpointToProto(c.endpoint, c.secret));
    },
    async listWebhookEndpoints(req: pb.ListWebhookEndpointsRequest, scope: CallScope) {
      return { endpoints: (await webhooks.listEndpoints(services, scope.tenantId, pageOf(req))).map((e) => endpointToProto(e)) };
    },
    async getWebhookEndpoint(req: pb.GetWebhookEndpointRequest, scope: CallScope) {
      return { endpoint: endpointToProto(await webhooks.getEndpoint(services, scope.tenantId, req.id)) };
    },
    async updateWebhookEndpoints(req: pb.UpdateWebhookEndpointsRequest, scope: CallScope) {
      const updates = req.endpoints.map((e) => ({
        id: e.id,
        changes: {
          url: e.url,
          description: e.description,
          eventTypes: e.eventTypes.length > 0 ? e.eventTypes : undefined,
          enabled: e.enabled,
          referenceSignature: e.referenceSignature,
        },
      }));
      return updated(await webhooks.updateEndpoints(services, scope.tenantId, updates), (e) => endpointToProto(e));
    },
    async deleteWebhookEndpoints(req: pb.DeleteWebhookEndpointsRequest, scope: CallScope) {
      return deleted(await webhooks.deleteEndpoints(services, scope.tenantId, req.ids));
    },
    async rotateWebhookSecret(req: pb.RotateWebhookSecretRequest, scope: CallScope) {
      const rotated = await webhooks.rotateSecret(services, scope.tenantId, req.id, req.gracePeriodSeconds);
      return { endpoint: endpointToProto(rotated.endpoint, rotated.secret) };
    },
    async listWebhookDeliveries(req: pb.ListWebhookDeliveriesRequest, scope: CallScope) {
      const filter = { endpointId: req.endpointId, status: statuses.fromProto(req.status) };
      return { deliveries: (await webhooks.listWebhookDeliveries(services, scope.tenantId, filter, pageOf(req))).map(deliveryToProto) };
    },
    async getWebhookDelivery(req: pb.GetWebhookDeliveryRequest, scope: CallScope) {
      return { delivery: deliveryToProto(await webhooks.getWebhookDelivery(services, scope.tenantId, req.endpointId, req.messageId)) };
    },
    async listWebhookMessageDeliveries(req: pb.ListWebhookMessageDeliveriesRequest, scope: CallScope) {
      // A message goes to at most one delivery per endpoint; 100 covers every endpoint a tenant reasonably has.
      return {
        deliveries: (await webhooks.listWebhookDeliveries(services, scope.tenantId, { messageId: req.messageId }, { limit: 100, skip: 0 })).map(
          deliveryToProto,
        ),
      };
    },
    async redeliverWebhookMessage(req: pb.RedeliverWebhookMessageRequest, scope: CallScope) {
      return { delivery: deliveryToProto(await webhooks.redeliverMessage(services, scope.tenantId, req.endpointId, req.messageId)) };
    },
  };
}
