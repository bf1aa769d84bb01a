import { checkAttributeDraft, type AttributeConfig, type AttributeType } from "../../engine/domain/attribute.js";
import { definedOnly, type ResourceSpec } from "./admin-resources.js";
import { describeReferrers } from "../../engine/references.js";
import { checkName } from "../../engine/domain/rules.js";

/**
 * User attributes a tenant may have, and event attributes: a user holds at most one value per user
 * attribute (values of deleted ones are dropped at their next write), so this bounds the
 * `attributes` of their document (docs/design.md).
 */
export const MAX_ATTRIBUTES_PER_TYPE = 100;

/** Custom attributes: key and type are fixed at creation; only the name changes. */
export const attributeSpec: ResourceSpec<AttributeConfig, { key: string; name: string; type?: AttributeType }, { name?: string }> = {
  noun: "Attribute",
  collection: (ctx) => ctx.database.collections.attributes,
  async checkDraft(ctx, scope, draft) {
    const problem = checkAttributeDraft(draft);
    if (problem) return problem;
    const held = await ctx.database.collections.attributes.countDocuments({ tenantId: scope.tenantId, type: draft.type });
    return held >= MAX_ATTRIBUTES_PER_TYPE ? `A tenant has at most ${MAX_ATTRIBUTES_PER_TYPE} ${draft.type} attributes; delete one first` : null;
  },
  build(draft, id, now) {
    return { id, key: draft.key, name: draft.name, type: draft.type!, created: now, updated: now };
  },
  async checkChanges(_ctx, _scope, _current, changes) {
    return changes.name === undefined ? null : checkName(changes.name);
  },
  applyChanges: (current, changes, now) => ({ ...current, ...definedOnly(changes), updated: now }),
  duplicateMessage: (attribute) => `Key "${attribute.key}" is already in use by another ${attribute.type} attribute`,
  checkDelete: (ctx, scope, attribute) => describeReferrers(ctx, scope.tenantId, "attribute", attribute.id, attribute.key),
};
