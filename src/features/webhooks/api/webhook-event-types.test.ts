import { getOption } from "@bufbuild/protobuf";
import { field as validateRules } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../domain/webhooks.js";
import { CreateWebhookEndpointItemSchema, UpdateWebhookEndpointItemSchema } from "../../../gen/gamification/v1/webhook_admin_service_pb.js";

/**
 * The webhook event types are written in the proto (the `in` rule of `event_types`, which the
 * request guard enforces and the OpenAPI document lists) and in the domain (a literal union, so the
 * payload of each type is typed). This guard keeps the two one list: the domain's, in its order,
 * with `max_items` equal to its length.
 */
describe("webhook event types", () => {
  for (const schema of [CreateWebhookEndpointItemSchema, UpdateWebhookEndpointItemSchema]) {
    it(`are the domain's list in ${schema.typeName}.event_types`, () => {
      const rules = getOption(schema.field.eventTypes, validateRules);
      if (rules.type.case !== "repeated") throw new Error("event_types has no repeated rules");
      const items = rules.type.value.items?.type;
      if (items?.case !== "string") throw new Error("event_types items have no string rules");
      expect(items.value.in).toEqual([...WEBHOOK_EVENT_TYPES]);
      expect(Number(rules.type.value.maxItems)).toBe(WEBHOOK_EVENT_TYPES.length);
    });
  }
});
