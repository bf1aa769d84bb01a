import { readdirSync } from "node:fs";
import { getOption, type DescMessage, type DescService } from "@bufbuild/protobuf";
import { field as validateRules } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { describe, expect, it } from "vitest";

/** Every service the proto defines (the server serves them all). */
async function allServices(): Promise<DescService[]> {
  const dir = new URL("../gen/gamification/v1/", import.meta.url);
  const files = readdirSync(dir).filter((name) => name.endsWith("_pb.ts"));
  const modules = await Promise.all(files.map((name) => import(new URL(name, dir).href) as Promise<Record<string, unknown>>));
  return modules.flatMap((m) => Object.values(m).filter((value): value is DescService => (value as DescService | undefined)?.kind === "service"));
}

/** Every enum field of every request message (and the messages inside it), as `Message.field`. */
function requestEnumFields(services: readonly DescService[]): Array<{ path: string; definedOnly: boolean }> {
  const seen = new Set<string>();
  const found: Array<{ path: string; definedOnly: boolean }> = [];
  const walk = (message: DescMessage): void => {
    if (seen.has(message.typeName) || message.typeName.startsWith("google.protobuf.")) return;
    seen.add(message.typeName);
    for (const field of message.fields) {
      const isEnum =
        field.fieldKind === "enum" || (field.fieldKind === "list" && field.listKind === "enum") || (field.fieldKind === "map" && field.mapKind === "enum");
      if (isEnum) {
        const rules = getOption(field, validateRules);
        const enumRules =
          rules.type.case === "enum"
            ? rules.type.value
            : rules.type.case === "repeated" && rules.type.value.items?.type.case === "enum"
              ? rules.type.value.items.type.value
              : rules.type.case === "map" && rules.type.value.values?.type.case === "enum"
                ? rules.type.value.values.type.value
                : undefined;
        found.push({ path: `${message.typeName}.${field.name}`, definedOnly: enumRules?.definedOnly === true || (enumRules?.in.length ?? 0) > 0 });
      }
      if (field.message) walk(field.message);
    }
  };
  for (const service of services) for (const method of service.methods) walk(method.input);
  return found;
}

/**
 * protobuf-es reads any enum number, named or not (proto3 enums are open), and the enum mappings
 * treat a number they do not know as "not given": a request with `status: 99` would quietly change
 * nothing, or take the default. Every enum a caller sends must therefore carry protovalidate's
 * `defined_only` (or an `in` list), so the request guard refuses an unknown value on every protocol.
 */
describe("enum fields of requests", () => {
  it("all refuse values the enum does not define", async () => {
    const services = await allServices();
    expect(services.length).toBeGreaterThanOrEqual(11);
    const fields = requestEnumFields(services);
    expect(fields.length).toBeGreaterThan(10);
    expect(fields.filter((f) => !f.definedOnly).map((f) => f.path)).toEqual([]);
  });
});
