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

/** Attribute keys become document field names: letters, digits, hyphens and underscores only. */
const ATTRIBUTE_KEY = /^[A-Za-z0-9_-]+$/;

export function checkAttributeDraft(draft: { key: string; name: string; type?: AttributeType }): string | null {
  if (draft.name.trim() === "") return "name is required";
  if (draft.name.length > 255) return "name must be at most 255 characters";
  if (draft.key === "") return "key is required";
  if (draft.key.length > 100 || !ATTRIBUTE_KEY.test(draft.key)) {
    return `key "${draft.key}" is invalid: use letters, digits, hyphens and underscores, at most 100 characters`;
  }
  if (draft.type === undefined) return 'type is required: "user" or "event"';
  return null;
}

/** The keys of `values` that are not among `known`, in the order sent. */
export function findUnknownKeys(values: Record<string, string> | undefined, known: ReadonlySet<string>): string[] {
  return Object.keys(values ?? {}).filter((key) => !known.has(key));
}

/** The error message for attribute keys that were not created through the Admin API. */
export function invalidAttributeKeysMessage(keys: string[]): string {
  return `Invalid attribute keys: ${keys.join(", ")}. Please make sure all keys match attributes created in the dashboard.`;
}
