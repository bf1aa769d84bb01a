import { toJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema, type Value } from "@bufbuild/protobuf/wkt";
import { invalidArgument } from "../engine/domain/errors.js";

/**
 * Reads an update field that JSON `null` clears. Such fields are typed `google.protobuf.Value` in
 * the proto, because protobuf JSON cannot tell `null` from a missing field otherwise. Returns
 * undefined (not sent: keep the value), null (clear it) or the parsed value; a value of another
 * shape refuses the request, naming the field and the shape expected.
 */
export function readNullable<T>(value: Value | undefined, path: string, expected: string, parse: (json: JsonValue) => T | undefined): T | null | undefined {
  if (value === undefined) return undefined;
  let json: JsonValue | undefined;
  try {
    json = toJson(ValueSchema, value);
  } catch {
    json = undefined; // a Value without a kind
  }
  if (json === null) return null;
  const parsed = json === undefined ? undefined : parse(json);
  if (parsed === undefined) throw invalidArgument(`Invalid request: ${path} must be ${expected} or null`);
  return parsed;
}

export const asString = (json: JsonValue): string | undefined => (typeof json === "string" ? json : undefined);

export const asStringList = (json: JsonValue): string[] | undefined =>
  Array.isArray(json) && json.every((item) => typeof item === "string") ? json : undefined;

/** A list of objects with exactly these string fields, e.g. `[{"key": ..., "value": ...}]`. */
export function asObjectList<K extends string>(keys: readonly K[]): (json: JsonValue) => Array<Record<K, string>> | undefined {
  const matches = (item: JsonValue): item is JsonObject =>
    typeof item === "object" &&
    item !== null &&
    !Array.isArray(item) &&
    Object.keys(item).length === keys.length &&
    keys.every((k) => typeof item[k] === "string");
  return (json) =>
    Array.isArray(json) && json.every(matches) ? json.map((item) => Object.fromEntries(keys.map((k) => [k, item[k]])) as Record<K, string>) : undefined;
}
