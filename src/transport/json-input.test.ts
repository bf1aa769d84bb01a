import { describe, expect, it } from "vitest";
import { parseJsonBody } from "./json-input.js";

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
