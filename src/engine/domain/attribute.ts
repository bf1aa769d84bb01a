import { checkConfigKey, checkName } from "./rules.js";

export type AttributeType = "user" | "event";

/** A custom attribute: a key callers may set on users or on events, created through the Admin API. */
export interface AttributeConfig {
  id: string;
  key: string;
  name: string;
  type: AttributeType;
  created: Date;
  updated: Date;
}

export function checkAttributeDraft(draft: { key: string; name: string; type?: AttributeType }): string | null {
  const problem = checkName(draft.name) ?? checkConfigKey(draft.key);
  if (problem) return problem;
  if (draft.type === undefined) return 'type is required: "user" or "event"';
  return null;
}

/** The keys of `values` that are not among `known`, in the order sent. */
export function findUnknownKeys(values: Record<string, string> | undefined, known: Pick<ReadonlySet<string>, "has">): string[] {
  return Object.keys(values ?? {}).filter((key) => !known.has(key));
}

/** The error message for attribute keys that were not created through the Admin API. */
export function invalidAttributeKeysMessage(keys: string[]): string {
  return `Invalid attribute keys: ${keys.join(", ")}. Please make sure all keys match attributes created in the dashboard.`;
}
