import { ScalarType, getOption, hasOption, type DescEnum, type DescField, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { rest } from "../gen/gamification/v1/options_pb.js";

/**
 * The REST surface speaks the reference API's JSON, which differs from canonical protobuf JSON in
 * three ways, handled here generically from the descriptors:
 * - enum values are lower-case short names (`"number"`, not `"METRIC_UNIT_TYPE_NUMBER"`);
 * - 64-bit integers are JSON numbers, not strings;
 * - fields with presence that are unset are `null` (not absent), unless the field is marked
 *   `(gamification.v1.rest).omit_empty`, in which case unset or empty values are left out;
 * - the other `(gamification.v1.rest)` options (options.proto): a field written only with another
 *   (`present_with`), one never written (`hidden`), and a request list that `null` or `[]` clears
 *   through a bool field (`clear_with`).
 */

const INT64_TYPES = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);
const WELL_KNOWN = /^google\.protobuf\./;

interface RestOptions {
  omitEmpty: boolean;
  /** The sibling field this one is written with (`present_with`), or null. */
  presentWith: DescField | null;
  hidden: boolean;
  /** The sibling bool field that `null` or `[]` sets in a request (`clear_with`), or null. */
  clearWith: DescField | null;
}

// Reading an option decodes it from the descriptor each time (a message per call): remember it per field.
const restOptionsOfField = new WeakMap<DescField, RestOptions>();
function restOptions(field: DescField): RestOptions {
  let options = restOptionsOfField.get(field);
  if (options === undefined) {
    const o = hasOption(field, rest) ? getOption(field, rest) : null;
    const sibling = (name: string | undefined) => (name ? (field.parent.fields.find((f) => f.name === name) ?? null) : null);
    options = { omitEmpty: o?.omitEmpty ?? false, presentWith: sibling(o?.presentWith), hidden: o?.hidden ?? false, clearWith: sibling(o?.clearWith) };
    restOptionsOfField.set(field, options);
  }
  return options;
}

/** Rewrites canonical protobuf JSON (from `toJson` with implicit fields emitted) into reference JSON. */
export function toRestJson(schema: DescMessage, json: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const field of schema.fields) {
    const value = json[field.jsonName];
    const { omitEmpty, presentWith, hidden } = restOptions(field);
    if (hidden) continue;
    if (presentWith) {
      const with_ = json[presentWith.jsonName];
      if (with_ === undefined || with_ === null || with_ === false || isEmpty(with_)) continue;
    }
    if (value === undefined || value === null) {
      if (!omitEmpty) out[field.jsonName] = null;
      continue;
    }
    if (omitEmpty && isEmpty(value)) continue;
    out[field.jsonName] = restValue(field, value);
  }
  return out;
}

function isEmpty(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && value !== null && Object.keys(value).length === 0;
}

function restValue(field: DescField, value: JsonValue): JsonValue {
  switch (field.fieldKind) {
    case "scalar":
      return restScalar(field.scalar, value);
    case "enum":
      return restEnum(field.enum, value);
    case "message":
      return restMessage(field.message, value);
    case "list":
      return (value as JsonValue[]).map((item) =>
        field.listKind === "scalar"
          ? restScalar(field.scalar, item)
          : field.listKind === "enum"
            ? restEnum(field.enum, item)
            : restMessage(field.message, item),
      );
    case "map":
      return Object.fromEntries(
        Object.entries(value as JsonObject).map(([k, v]) => [
          k,
          field.mapKind === "scalar" ? restScalar(field.scalar, v) : field.mapKind === "enum" ? restEnum(field.enum, v) : restMessage(field.message, v),
        ]),
      );
  }
}

function restScalar(type: ScalarType, value: JsonValue): JsonValue {
  return INT64_TYPES.has(type) && typeof value === "string" ? Number(value) : value;
}

function restEnum(desc: DescEnum, value: JsonValue): JsonValue {
  const found = desc.values.find((v) => v.name === value);
  return found && found.number !== 0 ? found.localName.toLowerCase() : null;
}

function restMessage(desc: DescMessage, value: JsonValue): JsonValue {
  return WELL_KNOWN.test(desc.typeName) ? value : toRestJson(desc, value as JsonObject);
}

/**
 * Rewrites reference JSON of a request into canonical protobuf JSON: lower-case enum names become
 * the proto names. An unknown enum value is refused with the list of allowed ones.
 */
export function fromRestJson(schema: DescMessage, json: JsonValue, path = ""): JsonValue {
  if (typeof json !== "object" || json === null || Array.isArray(json) || WELL_KNOWN.test(schema.typeName)) return json;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(json)) {
    const field = schema.fields.find((f) => f.jsonName === key || f.name === key);
    const clearWith = field ? restOptions(field).clearWith : null;
    if (clearWith && (value === null || (Array.isArray(value) && value.length === 0))) {
      out[clearWith.jsonName] = true;
      continue;
    }
    out[key] = field && value !== null ? requestValue(field, value, path ? `${path}.${key}` : key) : value;
  }
  return out;
}

function requestValue(field: DescField, value: JsonValue, path: string): JsonValue {
  switch (field.fieldKind) {
    case "enum":
      return requestEnum(field.enum, value, path);
    case "message":
      return fromRestJson(field.message, value, path);
    case "list":
      if (!Array.isArray(value)) return value;
      return value.map((item, i) =>
        field.listKind === "enum"
          ? requestEnum(field.enum, item, `${path}[${i}]`)
          : field.listKind === "message"
            ? fromRestJson(field.message, item, `${path}[${i}]`)
            : item,
      );
    case "map":
      if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          field.mapKind === "enum"
            ? requestEnum(field.enum, v, `${path}.${k}`)
            : field.mapKind === "message"
              ? fromRestJson(field.message, v, `${path}.${k}`)
              : v,
        ]),
      );
    default:
      return value;
  }
}

function requestEnum(desc: DescEnum, value: JsonValue, path: string): JsonValue {
  if (typeof value !== "string") return value;
  const allowed = desc.values.filter((v) => v.number !== 0);
  const found = allowed.find((v) => v.localName.toLowerCase() === value || v.name === value);
  if (!found) {
    const names = allowed.map((v) => `"${v.localName.toLowerCase()}"`).join(", ");
    throw new ConnectError(`${path}: "${value}" is not one of ${names}`, Code.InvalidArgument);
  }
  return found.name;
}
