import { checkAttributeDraft, type AttributeConfig, type AttributeType } from "../../engine/domain/attribute.js";
import { definedOnly, type ResourceSpec } from "./admin-resources.js";
import { describeReferrers } from "../../engine/references.js";

/** Custom attributes: key and type are fixed at creation; only the name changes. */
export const attributeSpec: ResourceSpec<AttributeConfig, { key: string; name: string; type?: AttributeType }, { name?: string }> = {
  noun: "Attribute",
  collection: (ctx) => ctx.database.collections.attributes,
  async checkDraft(_ctx, _scope, draft) {
    return checkAttributeDraft(draft);
  },
  build(draft, id, now) {
    return { id, key: draft.key, name: draft.name, type: draft.type!, created: now, updated: now };
  },
  async checkChanges(_ctx, _scope, _current, changes) {
    if (changes.name !== undefined && changes.name.trim() === "") return "name must not be empty";
    return null;
  },
  applyChanges: (current, changes, now) => ({ ...current, ...definedOnly(changes), updated: now }),
  duplicateMessage: (attribute) => `Key "${attribute.key}" is already in use by another ${attribute.type} attribute`,
  checkDelete: (ctx, scope, attribute) => describeReferrers(ctx, scope.tenantId, "attribute", attribute.id, attribute.key),
};
