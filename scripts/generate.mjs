// Prepares the proto dependencies that no reachable package ships as source, then runs `buf generate`.
//
// - buf/validate/validate.proto: printed from the descriptor embedded in @bufbuild/protovalidate
//   (the Buf Schema Registry is unreachable). Only declarations are printed; the rule options on
//   validate.proto's own fields are not needed to compile our files, and at run time protovalidate
//   uses its own complete descriptor.
// - google/api/{annotations,http}.proto: copied from google-proto-files.
// Everything lands in .proto-deps/ (git-ignored), a buf module excluded from lint and breaking checks.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isFieldSet } from "@bufbuild/protobuf";
import { FieldDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { file_buf_validate_validate } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const depsDir = join(root, ".proto-deps");
const require = createRequire(import.meta.url);

/** Prints the declarations of a proto2 FileDescriptorProto as .proto source. */
function printProto2File(file) {
  const out = [`// Generated from the descriptor embedded in @bufbuild/protovalidate. Do not edit.`, `syntax = "proto2";`, ``];
  out.push(`package ${file.package};`, ``);
  for (const dep of file.dependency) out.push(`import "${dep}";`);
  out.push(``);
  for (const m of file.messageType) printMessage(m, "", out, file.package);
  for (const e of file.enumType) printEnum(e, "", out);
  printExtensions(file.extension, "", out);
  return out.join("\n") + "\n";
}

const LABELS = { 1: "optional", 2: "required", 3: "repeated" };
const SCALARS = {
  1: "double",
  2: "float",
  3: "int64",
  4: "uint64",
  5: "int32",
  6: "fixed64",
  7: "fixed32",
  8: "bool",
  9: "string",
  12: "bytes",
  13: "uint32",
  15: "sfixed32",
  16: "sfixed64",
  17: "sint32",
  18: "sint64",
};

function fieldType(f) {
  return SCALARS[f.type] ?? f.typeName; // message (11) and enum (14) carry a fully qualified ".pkg.Name"
}

function printField(f, indent, out, withLabel) {
  const label = withLabel ? `${LABELS[f.label]} ` : "";
  out.push(`${indent}${label}${fieldType(f)} ${f.name} = ${f.number};`);
}

// proto2 `optional int32 oneof_index` reads 0 when unset; only a set index means a oneof member.
function oneofIndexOf(field) {
  return isFieldSet(field, FieldDescriptorProtoSchema.field.oneofIndex) ? field.oneofIndex : undefined;
}

function printMessage(m, indent, out) {
  out.push(`${indent}message ${m.name} {`);
  const inner = indent + "  ";
  for (const nested of m.nestedType) printMessage(nested, inner, out);
  for (const e of m.enumType) printEnum(e, inner, out);
  m.oneofDecl.forEach((oneof, index) => {
    out.push(`${inner}oneof ${oneof.name} {`);
    for (const f of m.field.filter((f) => oneofIndexOf(f) === index)) printField(f, inner + "  ", out, false);
    out.push(`${inner}}`);
  });
  for (const f of m.field.filter((f) => oneofIndexOf(f) === undefined)) printField(f, inner, out, true);
  for (const r of m.extensionRange) out.push(`${inner}extensions ${r.start} to ${r.end - 1 >= 536870911 ? "max" : r.end - 1};`);
  for (const r of m.reservedRange) out.push(`${inner}reserved ${r.start} to ${r.end - 1};`);
  for (const name of m.reservedName) out.push(`${inner}reserved "${name}";`);
  printExtensions(m.extension, inner, out);
  out.push(`${indent}}`);
}

function printEnum(e, indent, out) {
  out.push(`${indent}enum ${e.name} {`);
  for (const v of e.value) out.push(`${indent}  ${v.name} = ${v.number};`);
  out.push(`${indent}}`);
}

function printExtensions(extensions, indent, out) {
  const byExtendee = new Map();
  for (const x of extensions) byExtendee.set(x.extendee, [...(byExtendee.get(x.extendee) ?? []), x]);
  for (const [extendee, fields] of byExtendee) {
    out.push(`${indent}extend ${extendee} {`);
    for (const f of fields) printField(f, indent + "  ", out, true);
    out.push(`${indent}}`);
  }
}

main();

function main() {
  mkdirSync(join(depsDir, "buf/validate"), { recursive: true });
  mkdirSync(join(depsDir, "google/api"), { recursive: true });
  writeFileSync(join(depsDir, "buf/validate/validate.proto"), printProto2File(file_buf_validate_validate.proto));
  const googleProtos = dirname(require.resolve("google-proto-files/package.json"));
  for (const name of ["annotations.proto", "http.proto"]) {
    copyFileSync(join(googleProtos, "google/api", name), join(depsDir, "google/api", name));
  }

  // Files are overwritten in place (not deleted first), so a test run in parallel never sees them missing.
  execFileSync(join(root, "node_modules/.bin/buf"), ["generate"], { cwd: root, stdio: "inherit" });
}
