import { ScalarType, fromJson, type DescEnum, type DescField, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { visit } from "jsonc-parser";
import { isCalendarDate } from "../engine/domain/plain-dates.js";

/**
 * The input rules every JSON request body meets, on REST and on Connect/gRPC-web JSON alike, so the
 * two surfaces judge the same bytes the same way:
 * - the body is valid UTF-8 (no silent U+FFFD replacement that would make two byte strings one id);
 * - objects and arrays nest at most MAX_JSON_DEPTH deep (bounded work for any body);
 * - strict JSON (no comments, trailing commas, NaN literals) with no key repeated in one object
 *   (JSON.parse would keep the last one silently);
 * - numeric fields take JSON numbers, or strings in plain decimal notation as the proto3 JSON mapping
 *   allows ("750", "1.5e3"); "0x10", "Infinity", "NaN", " 5" are refused;
 * - timestamps name a real date and time (protobuf-es reads them with `Date.parse`, which rolls
 *   2027-02-29 over to March 1 and T24:00 to the next day);
 * - fields the message does not define are refused.
 */
export const MAX_JSON_DEPTH = 32;

const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMERIC_SCALARS = new Set([
  ScalarType.DOUBLE,
  ScalarType.FLOAT,
  ScalarType.INT32,
  ScalarType.INT64,
  ScalarType.UINT32,
  ScalarType.UINT64,
  ScalarType.SINT32,
  ScalarType.SINT64,
  ScalarType.FIXED32,
  ScalarType.FIXED64,
  ScalarType.SFIXED32,
  ScalarType.SFIXED64,
]);
const FLOATING_SCALARS = new Set([ScalarType.DOUBLE, ScalarType.FLOAT]);
const utf8 = new TextDecoder("utf-8", { fatal: true });

function invalid(message: string): ConnectError {
  return new ConnectError(message, Code.InvalidArgument);
}

/** Parses a request body under the rules above (all but the message-specific ones). */
export function parseJsonBody(bytes: Uint8Array): JsonValue {
  if (bytes.length === 0) throw invalid("Invalid request: a JSON body is required");
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalid("Invalid request: the body is not valid UTF-8");
  }
  const keys = checkDepth(text);
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(text) as JsonValue;
  } catch (error) {
    throw invalid(`Malformed JSON body: ${(error as Error).message}`);
  }
  // JSON.parse keeps one property per distinct key of an object: as many properties as keys in the
  // text means no key is repeated, without a second parse of the text to find which.
  if (propertyCount(parsed) !== keys) checkDuplicateKeys(text);
  return parsed;
}

/**
 * Counts nesting outside strings; refuses before any recursive parser sees the text. Returns the
 * number of object keys in the text (in valid JSON, every colon outside a string follows one).
 */
function checkDepth(text: string): number {
  let keys = 0;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) throw invalid(`Invalid request: the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x3a) {
      keys++;
    }
  }
  return keys;
}

function propertyCount(value: JsonValue): number {
  if (typeof value !== "object" || value === null) return 0;
  const items = Array.isArray(value) ? value : Object.values(value);
  let count = Array.isArray(value) ? 0 : items.length;
  for (const item of items) count += propertyCount(item);
  return count;
}

function checkDuplicateKeys(text: string): void {
  const open: Array<Set<string>> = [];
  let duplicate: string | undefined;
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (name) => {
      const keys = open.at(-1)!;
      if (keys.has(name)) duplicate ??= name;
      keys.add(name);
    },
  });
  if (duplicate !== undefined) throw invalid(`Invalid request: the key "${duplicate}" appears twice in one JSON object`);
}

/**
 * Reads canonical protobuf JSON into a message under the message-specific rules: decimal numeric
 * strings only, no unknown fields, no enum's unspecified zero named. Errors name the JSON field path.
 */
export function readRequestJson<Desc extends DescMessage>(schema: Desc, json: JsonValue): MessageShape<Desc> {
  checkFieldValues(schema, json, "");
  try {
    return fromJson(schema, json, { ignoreUnknownFields: false });
  } catch (error) {
    if (error instanceof ConnectError) throw error;
    throw invalid(`Invalid request: ${locateJsonError(schema, json, "") ?? describeJsonError(error)}`);
  }
}

/** Each element of a field's JSON value with its own path, as protobuf-es writes paths: `items[2]`, `labels["a"]`. */
function elementsOf(field: DescField, value: JsonValue, at: string): Array<[item: JsonValue, path: string]> {
  if (field.fieldKind === "list" && Array.isArray(value)) return value.map((item, i) => [item, `${at}[${i}]`]);
  if (field.fieldKind === "map" && isObject(value)) return Object.entries(value).map(([k, item]) => [item, `${at}[${JSON.stringify(k)}]`]);
  return [[value, at]];
}

function fieldOf(schema: DescMessage, key: string): DescField | undefined {
  return schema.fields.find((f) => f.jsonName === key || f.name === key);
}

function isPlainMessage(schema: DescMessage | undefined): schema is DescMessage {
  return schema !== undefined && !schema.typeName.startsWith("google.protobuf.");
}

function isObject(json: JsonValue): json is { [key: string]: JsonValue } {
  return typeof json === "object" && json !== null && !Array.isArray(json);
}

function checkFieldValues(schema: DescMessage, json: JsonValue, path: string): void {
  if (!isObject(json) || !isPlainMessage(schema)) return;
  for (const [key, value] of Object.entries(json)) {
    const field = fieldOf(schema, key);
    if (!field || value === null) continue;
    // Strings, booleans and bytes have no rule here: protobuf-es judges them.
    const { scalar } = elementOf(field);
    if (scalar !== undefined && !NUMERIC_SCALARS.has(scalar)) continue;
    for (const [item, itemPath] of elementsOf(field, value, path ? `${path}.${key}` : key)) checkFieldValue(field, item, itemPath);
  }
}

function checkFieldValue(field: DescField, value: JsonValue, path: string): void {
  const element = elementOf(field);
  if (element.scalar !== undefined && NUMERIC_SCALARS.has(element.scalar) && typeof value === "string" && !DECIMAL.test(value)) {
    throw invalid(`Invalid request: ${path} must be a number, got the string ${JSON.stringify(value)}`);
  }
  const number = typeof value === "number" ? value : typeof value === "string" && value !== "" ? Number(value) : NaN;
  if (
    element.scalar !== undefined &&
    NUMERIC_SCALARS.has(element.scalar) &&
    !FLOATING_SCALARS.has(element.scalar) &&
    Number.isFinite(number) &&
    !Number.isInteger(number)
  ) {
    throw invalid(`Invalid request: ${path} must be a whole number, got ${JSON.stringify(value)}`);
  }
  // protobuf-es reads the unspecified zero's name as the value 0, which the services take as "not
  // given": refused, as REST refuses it, so naming it never quietly means nothing.
  if (element.enum && typeof value === "string" && element.enum.values.find((v) => v.name === value)?.number === 0)
    throw invalid(`Invalid request: ${notOneOf(element.enum, value, path)}`);
  if (element.message?.typeName === "google.protobuf.Timestamp" && typeof value === "string") checkTimestamp(value, path);
  else if (element.message) checkFieldValues(element.message, value, path);
}

/** `path: "value" is not one of "A", "B"`: the enum's names a caller may send (all but the unspecified zero). */
function notOneOf(desc: DescEnum, value: JsonValue, path: string): string {
  const names = desc.values.filter((v) => v.number !== 0).map((v) => JSON.stringify(v.name));
  return `${path}: ${JSON.stringify(value)} is not one of ${names.join(", ")}`;
}

/**
 * After protobuf-es refused a body, finds the value it refuses and says what is wrong with it at its
 * JSON path: protobuf-es names the proto field (`UpdateLeaderboardItem.max_participants`) with no
 * list index. Reads one field at a time, and a list of messages one item at a time (so the work
 * stays that of one parse of the body). Undefined when no single value is at fault (two fields of
 * one oneof).
 */
function locateJsonError(schema: DescMessage, json: JsonValue, path: string): string | undefined {
  if (!isObject(json)) return undefined;
  for (const [key, value] of Object.entries(json)) {
    const field = fieldOf(schema, key);
    if (!field) return `${path ? `${path}: ` : ""}unknown field ${JSON.stringify(key)}`;
    if (value === null) continue;
    const at = path ? `${path}.${key}` : key;
    if ((field.fieldKind === "list" && !Array.isArray(value)) || (field.fieldKind === "map" && !isObject(value)))
      return `${at}: expected ${field.fieldKind === "list" ? "a list" : "an object"}, got ${shortJson(value)}`;
    const element = elementOf(field);
    const isTimestamp = element.message?.typeName === "google.protobuf.Timestamp";
    if (isPlainMessage(element.message)) {
      for (const [item, itemPath] of elementsOf(field, value, at)) {
        if (!isObject(item)) return `${itemPath}: expected an object, got ${shortJson(item)}`;
        const problem = refusal(() => fromJson(element.message!, item, { ignoreUnknownFields: false }));
        if (problem) return locateJsonError(element.message, item, itemPath) ?? `${itemPath}: ${problem}`;
      }
      continue;
    }
    const problem = refusal(() => fromJson(schema, { [key]: value }, { ignoreUnknownFields: false }));
    if (!problem) continue;
    // protobuf-es names the list item (counting from 1) or map entry of a scalar list or map.
    const [, index, entry] = /^(?:list item #(\d+)|map entry ("[^"]*")): /.exec(problem) ?? [];
    const itemPath = index !== undefined ? `${at}[${Number(index) - 1}]` : entry !== undefined ? `${at}[${entry}]` : at;
    const reason = problem.replace(/^(list item #\d+|map entry "[^"]*"): /, "");
    if (element.enum) return notOneOf(element.enum, value, at);
    if (isTimestamp && (typeof value !== "string" || reason.includes("RFC 3339"))) return `${at}: expected an RFC 3339 date and time, got ${shortJson(value)}`;
    return `${itemPath}: ${reason}`;
  }
  return undefined;
}

/** What protobuf-es says is wrong, without its proto names; null when it reads the value. */
function refusal(read: () => unknown): string | null {
  try {
    read();
    return null;
  } catch (error) {
    return describeJsonError(error)
      .replace(/^cannot decode (field|message) [\w.]+ from JSON: /, "")
      .replace("expected bigint (", "expected number (");
  }
}

/** A value as an error shows it: JSON, cut short. */
export function shortJson(value: JsonValue): string {
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The date and the time of day of an RFC 3339 string are real; its shape is protobuf-es's to check. */
function checkTimestamp(value: string, path: string): void {
  const parts = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(value);
  if (!parts) return;
  const [, date, hour, minute, second] = parts;
  if (!isCalendarDate(date!) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59)
    throw invalid(`Invalid request: ${path} is not a real date and time: ${JSON.stringify(value)}`);
}

/** The scalar or message type of a field's value, or of each element of a list or map. */
function elementOf(field: DescField): { scalar?: ScalarType; message?: DescMessage; enum?: DescEnum } {
  switch (field.fieldKind) {
    case "scalar":
      return { scalar: field.scalar };
    case "message":
      return { message: field.message };
    case "enum":
      return { enum: field.enum };
    case "list":
      return field.listKind === "scalar" ? { scalar: field.scalar } : field.listKind === "message" ? { message: field.message } : { enum: field.enum };
    case "map":
      return field.mapKind === "scalar" ? { scalar: field.scalar } : field.mapKind === "message" ? { message: field.message } : { enum: field.enum };
    default:
      return {};
  }
}

/** protobuf-es names fields by their full proto path; callers know the JSON field names. */
export function describeJsonError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      .replace(/cannot decode (field|message) gamification\.v1\./g, "cannot decode $1 ")
      // protobuf-es calls a fraction or a word in a 64-bit integer field "out of range".
      .replace(/expected bigint \(\w+\): (\S+) out of range$/, (whole, value: string) =>
        Number.isInteger(Number(value)) ? whole : `expected a whole number, got ${value}`,
      )
  );
}
