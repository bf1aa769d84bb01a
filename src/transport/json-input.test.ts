import { fromJson, type JsonValue } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { TrackMetricEventRequestSchema } from "../gen/gamification/v1/application_service_pb.js";
import { CreatePointsTriggerItemSchema } from "../gen/gamification/v1/points_admin_service_pb.js";
import { CreateLeaderboardsRequestSchema, UpdateLeaderboardsRequestSchema } from "../gen/gamification/v1/leaderboard_admin_service_pb.js";
import { describeJsonError, parseJsonBody, readRequestJson } from "./json-input.js";

const parse = (text: string) => parseJsonBody(Buffer.from(text));

describe("parseJsonBody: repeated keys", () => {
  it("refuses a key repeated in one object at any depth, and names it", () => {
    expect(() => parse('{"a":1,"a":2}')).toThrow(/"a" appears twice/);
    expect(() => parse('{"x":{"b":1,"c":{"d":[{"e":1,"e":1}]}}}')).toThrow(/"e" appears twice/);
    expect(() => parse('[{"k":1},{"k":2,"k":3}]')).toThrow(/"k" appears twice/);
    expect(() => parse('{"__proto__":1,"__proto__":2}')).toThrow(/"__proto__" appears twice/);
  });

  it("accepts the same key in different objects, and colons or quotes inside strings", () => {
    expect(parse('{"a":{"a":1},"b":[{"a":2},{"a":3}]}')).toEqual({ a: { a: 1 }, b: [{ a: 2 }, { a: 3 }] });
    expect(parse('{"a:b":"c:d","e\\":":"\\":"}')).toEqual({ "a:b": "c:d", 'e":': '":' });
    expect(parse('{"__proto__":{"x":1}}')).toEqual(JSON.parse('{"__proto__":{"x":1}}'));
  });
});

describe("readRequestJson: timestamps", () => {
  const read = (timestamp: string) => readRequestJson(TrackMetricEventRequestSchema, { key: "m", user: { id: "u" }, value: 1, timestamp });

  it("refuses a date or a time of day that does not exist, which Date.parse would roll over", () => {
    for (const timestamp of ["2027-02-29T10:00:00Z", "2028-02-30T00:00:00Z", "2027-04-31T00:00:00+02:00", "2027-06-01T24:00:00Z", "2027-06-01T23:60:00Z"])
      expect(() => read(timestamp), timestamp).toThrow(/timestamp is not a real date and time/);
  });

  it("reads real ones, a leap day included", () => {
    expect(timestampDate(read("2028-02-29T23:59:59.5+05:30").timestamp!).toISOString()).toBe("2028-02-29T18:29:59.500Z");
    expect(timestampDate(read("2027-12-31T00:00:00Z").timestamp!).toISOString()).toBe("2027-12-31T00:00:00.000Z");
  });
});

describe("describeJsonError", () => {
  const decoding = (json: unknown) => {
    try {
      fromJson(CreatePointsTriggerItemSchema, json as JsonValue);
    } catch (error) {
      return describeJsonError(error);
    }
    return null;
  };

  it("names the message without its package and says a fraction or a word is not a whole number", () => {
    expect(decoding({ points: 1.5 })).toBe("cannot decode field CreatePointsTriggerItem.points from JSON: expected a whole number, got 1.5");
    expect(decoding({ points: "abc" })).toBe("cannot decode field CreatePointsTriggerItem.points from JSON: expected a whole number, got abc");
    // A whole number too large for int64 is out of range indeed.
    expect(decoding({ points: "99999999999999999999" })).toMatch(/99999999999999999999 out of range$/);
  });
});

describe("readRequestJson: whole numbers", () => {
  const read = (json: unknown) => {
    try {
      readRequestJson(UpdateLeaderboardsRequestSchema, json as JsonValue);
    } catch (error) {
      return (error as Error).message;
    }
    return null;
  };

  it("refuses a fraction in an integer field, naming its path with the item's index", () => {
    const id = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000a";
    expect(read({ leaderboards: [{ id }, { id, maxParticipants: 2.5 }] })).toBe(
      "[invalid_argument] Invalid request: leaderboards[1].maxParticipants must be a whole number, got 2.5",
    );
    expect(read({ leaderboards: [{ id, maxParticipants: "1.5" }] })).toBe(
      '[invalid_argument] Invalid request: leaderboards[0].maxParticipants must be a whole number, got "1.5"',
    );
    expect(read({ leaderboards: [{ id, maxParticipants: "x" }] })).toBe(
      '[invalid_argument] Invalid request: leaderboards[0].maxParticipants must be a number, got the string "x"',
    );
    expect(read({ leaderboards: [{ id, maxParticipants: 3 }] })).toBeNull();
    expect(read({ leaderboards: [{ id, maxParticipants: "3" }] })).toBeNull();
  });
});

describe("readRequestJson: what protobuf-es refuses is named by its JSON path", () => {
  const id = "0b6a3c1e-5f2d-4c8a-9e7b-00000000000a";
  const read = (json: unknown) => {
    try {
      readRequestJson(UpdateLeaderboardsRequestSchema, json as JsonValue);
    } catch (error) {
      return (error as Error).message.replace("[invalid_argument] ", "");
    }
    return null;
  };

  it.each([
    [
      "a 32-bit integer out of range",
      { leaderboards: [{ id }, { id, maxParticipants: 2147483648 }] },
      "leaderboards[1].maxParticipants: expected number (int32): 2147483648 out of range",
    ],
    ["a boolean in an integer field", { leaderboards: [{ id, maxParticipants: true }] }, "leaderboards[0].maxParticipants: expected number (int32), got true"],
    ["a number in a string field", { leaderboards: [{ id, name: 5 }] }, "leaderboards[0].name: expected string, got 5"],
    ["an unknown field in an item", { leaderboards: [{ id, bogus: 1 }] }, 'leaderboards[0]: unknown field "bogus"'],
    ["an unknown field at the top", { leaderboards: [{ id }], bogus: 1 }, 'unknown field "bogus"'],
    ["an object for a list", { leaderboards: {} }, "leaderboards: expected a list, got {}"],
    ["a string for an item", { leaderboards: ["x"] }, 'leaderboards[0]: expected an object, got "x"'],
    ["a null item", { leaderboards: [null] }, "leaderboards[0]: expected an object, got null"],
    [
      "an enum name the enum does not have",
      { leaderboards: [{ id, status: "nope" }] },
      'leaderboards[0].status: "nope" is not one of "LEADERBOARD_STATUS_INACTIVE", "LEADERBOARD_STATUS_SCHEDULED", "LEADERBOARD_STATUS_ACTIVE", "LEADERBOARD_STATUS_FINISHED"',
    ],
    [
      'an enum\'s unspecified zero by name (read as "not given" otherwise)',
      { leaderboards: [{ id, status: "LEADERBOARD_STATUS_UNSPECIFIED" }] },
      'leaderboards[0].status: "LEADERBOARD_STATUS_UNSPECIFIED" is not one of "LEADERBOARD_STATUS_INACTIVE", "LEADERBOARD_STATUS_SCHEDULED", "LEADERBOARD_STATUS_ACTIVE", "LEADERBOARD_STATUS_FINISHED"',
    ],
  ])("%s", (_, json, message) => {
    expect(read(json)).toBe(`Invalid request: ${message}`);
  });

  it("names a list item by its index", () => {
    let message = "";
    try {
      readRequestJson(CreateLeaderboardsRequestSchema, { leaderboards: [{ key: "k", breakdownAttributes: ["a", 5] }] });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe("[invalid_argument] Invalid request: leaderboards[0].breakdownAttributes[1]: expected string, got 5");
  });

  it("reads enum names and numbers the enum has", () => {
    expect(read({ leaderboards: [{ id, status: "LEADERBOARD_STATUS_ACTIVE" }] })).toBeNull();
    expect(read({ leaderboards: [{ id, status: 3 }] })).toBeNull();
  });
});
