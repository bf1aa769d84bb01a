// gRPC server reflection (grpc.reflection.v1 and v1alpha) for connect-node routers, answered from
// the descriptors that protobuf-es embeds in generated code.
import { create, createFileRegistry, toBinary } from "@bufbuild/protobuf";
import type { DescFile, FileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ConnectRouter } from "@connectrpc/connect";
import * as v1 from "../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../gen/grpc/reflection/v1alpha/reflection_pb.js";

/**
 * A reflection request, independent of the protocol version: v1 and v1alpha messages have the
 * same fields, so both versions' generated request types fit this shape.
 */
type ReflectionRequest = {
  messageRequest:
    | { case: "fileByFilename" | "fileContainingSymbol" | "allExtensionNumbersOfType" | "listServices"; value: string }
    | { case: "fileContainingExtension"; value: { containingType: string; extensionNumber: number } }
    | { case: undefined; value?: undefined };
};

/** The `message_response` oneof of a reflection response, as plain data valid for both versions. */
type ReflectionAnswer =
  | { case: "fileDescriptorResponse"; value: { fileDescriptorProto: Uint8Array[] } }
  | { case: "allExtensionNumbersResponse"; value: { baseTypeName: string; extensionNumber: number[] } }
  | { case: "listServicesResponse"; value: { service: { name: string }[] } }
  | { case: "errorResponse"; value: { errorCode: number; errorMessage: string } };

/**
 * Registers the gRPC server reflection services `grpc.reflection.v1.ServerReflection` and
 * `grpc.reflection.v1alpha.ServerReflection` on a connect router.
 *
 * Reflection lets generic clients (`buf curl --reflect`, grpcurl, Postman) discover the services
 * and build requests without the .proto sources. connect-node has no built-in reflection, so this
 * answers from the file descriptors embedded in the generated code:
 * - `list_services`: the services declared in `files`, plus the two reflection services;
 * - `file_by_filename`, `file_containing_symbol` (service, method, message, field, enum or
 *   extension; enum values are not resolved), `file_containing_extension`: the file and all its transitive dependencies, the
 *   requested file first;
 * - `all_extension_numbers_of_type`: the extension numbers known for a message type.
 * Unknown names get an `error_response` with NOT_FOUND and the stream stays open.
 *
 * @param router The router that serves the API; reflection should be registered alongside it.
 * @param files The generated file descriptors declaring the exposed services (e.g.
 *   `file_gamification_v1_application_service`); their imports are included automatically.
 */
/** The reflection services: public, so tools can list and describe the API without a key. */
export const REFLECTION_SERVICES: ReadonlySet<string> = new Set([v1.ServerReflection.typeName, v1alpha.ServerReflection.typeName]);

export function registerReflection(router: ConnectRouter, files: readonly DescFile[]): void {
  const reflectionFiles = [v1.file_grpc_reflection_v1_reflection, v1alpha.file_grpc_reflection_v1alpha_reflection];
  const registry = createRegistryWithDependencies([...files, ...reflectionFiles]);
  const serviceNames = [...new Set([...files, ...reflectionFiles].flatMap((file) => file.services.map((s) => s.typeName)))];
  const answer = (request: ReflectionRequest) => answerRequest(registry, serviceNames, request);

  router.service(v1.ServerReflection, {
    async *serverReflectionInfo(requests) {
      for await (const request of clientRequests(requests)) {
        yield { validHost: request.host, originalRequest: request, messageResponse: answer(request) };
      }
    },
  });
  router.service(v1alpha.ServerReflection, {
    async *serverReflectionInfo(requests) {
      for await (const request of clientRequests(requests)) {
        yield { validHost: request.host, originalRequest: request, messageResponse: answer(request) };
      }
    },
  });
}

/** The client's request messages: one that does not parse is the caller's error (Connect says internal). */
async function* clientRequests<T>(requests: AsyncIterable<T>): AsyncIterable<T> {
  try {
    for await (const request of requests) yield request;
  } catch (error) {
    const refusal = ConnectError.from(error);
    throw refusal.code === Code.Internal ? new ConnectError(`Invalid request: ${refusal.rawMessage}`, Code.InvalidArgument) : refusal;
  }
}

/** Builds a file registry holding the given files and everything they import, transitively. */
function createRegistryWithDependencies(files: readonly DescFile[]): FileRegistry {
  const ordered = new Map<string, DescFile>(); // dependencies before dependents, as the registry requires
  const visit = (file: DescFile): void => {
    if (ordered.has(file.proto.name)) return;
    file.dependencies.forEach(visit);
    ordered.set(file.proto.name, file);
  };
  files.forEach(visit);
  return createFileRegistry(create(FileDescriptorSetSchema, { file: [...ordered.values()].map((f) => f.proto) }));
}

/** Answers one reflection request. */
function answerRequest(registry: FileRegistry, serviceNames: string[], request: ReflectionRequest): ReflectionAnswer {
  const req = request.messageRequest;
  switch (req.case) {
    case "listServices":
      return { case: "listServicesResponse", value: { service: serviceNames.map((name) => ({ name })) } };
    case "fileByFilename":
      return respondWithFile(registry.getFile(req.value), `file "${req.value}" not found`);
    case "fileContainingSymbol":
      return respondWithFile(findFileContainingSymbol(registry, req.value), `symbol "${req.value}" not found`);
    case "fileContainingExtension": {
      const { containingType, extensionNumber } = req.value;
      const message = registry.getMessage(containingType);
      const extension = message && registry.getExtensionFor(message, extensionNumber);
      return respondWithFile(extension?.file, `extension ${extensionNumber} of "${containingType}" not found`);
    }
    case "allExtensionNumbersOfType": {
      if (!registry.getMessage(req.value)) return respondWithError(Code.NotFound, `type "${req.value}" not found`);
      const numbers: number[] = [];
      for (const desc of registry) {
        if (desc.kind === "extension" && desc.extendee.typeName === req.value) numbers.push(desc.number);
      }
      return { case: "allExtensionNumbersResponse", value: { baseTypeName: req.value, extensionNumber: numbers } };
    }
    default:
      return respondWithError(Code.InvalidArgument, "empty or unsupported reflection request");
  }
}

/**
 * Finds the file declaring a fully qualified name: a service, message (nested and map entries
 * too), enum or extension, or a member of a service or message (`pkg.Service.Method`,
 * `pkg.Message.field`).
 */
function findFileContainingSymbol(registry: FileRegistry, symbol: string): DescFile | undefined {
  const name = symbol.startsWith(".") ? symbol.slice(1) : symbol;
  const found = registry.get(name);
  if (found) return found.file;
  const dot = name.lastIndexOf(".");
  const parent = registry.get(name.slice(0, dot));
  const member = name.slice(dot + 1);
  if (parent?.kind === "service" && parent.methods.some((m) => m.name === member)) return parent.file;
  // Map entry messages (`Parent.FooEntry`) are not registered as types by protobuf-es; they are
  // found through their parent's declaration, like fields.
  const isMessageMember =
    parent?.kind === "message" && (parent.fields.some((f) => f.name === member) || parent.proto.nestedType.some((n) => n.name === member));
  return isMessageMember ? parent.file : undefined;
}

/** A file descriptor response with the file first, then its transitive dependencies; or NOT_FOUND. */
function respondWithFile(file: DescFile | undefined, notFoundMessage: string): ReflectionAnswer {
  if (!file) return respondWithError(Code.NotFound, notFoundMessage);
  const closure = new Set<DescFile>();
  const visit = (f: DescFile): void => {
    if (closure.has(f)) return;
    closure.add(f);
    f.dependencies.forEach(visit);
  };
  visit(file);
  const fileDescriptorProto = [...closure].map((f) => toBinary(FileDescriptorProtoSchema, f.proto));
  return { case: "fileDescriptorResponse", value: { fileDescriptorProto } };
}

/** An error response; the code is a gRPC status code. */
function respondWithError(code: Code, errorMessage: string): ReflectionAnswer {
  return { case: "errorResponse", value: { errorCode: code, errorMessage } };
}
