import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { fromBinary } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { file_gamification_v1_admin_service } from "../gen/gamification/v1/admin_service_pb.js";
import { ApplicationService, file_gamification_v1_application_service } from "../gen/gamification/v1/application_service_pb.js";
import * as v1 from "../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { registerReflection } from "./reflection.js";

/** The request oneof as plain data, identical in both reflection versions. */
type RequestCase = NonNullable<MessageInitShape<typeof v1.ServerReflectionRequestSchema>["messageRequest"]>;

let server: http2.Http2Server;
let baseUrl: string;
const sessions = new Set<http2.ServerHttp2Session>(); // client transports keep theirs open; close them to stop the server

beforeAll(async () => {
  const routes = (router: ConnectRouter) => {
    // A stub of one real service, so that buf curl can call it with a schema learned by reflection.
    router.service(ApplicationService, {
      getUser: (request) => ({ user: { id: request.id, name: "Ada", deviceTokens: ["t1"] } }),
    });
    registerReflection(router, [file_gamification_v1_application_service, file_gamification_v1_admin_service]);
  };
  server = http2.createServer(connectNodeAdapter({ routes }));
  server.on("session", (session) => sessions.add(session));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const session of sessions) session.close();
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
});

describe.each([
  { version: "v1", service: v1.ServerReflection },
  { version: "v1alpha", service: v1alpha.ServerReflection },
] as const)("grpc.reflection.$version", ({ service }) => {
  /** Sends the requests on one stream and collects the responses as plain `message_response` oneofs. */
  async function reflect(...requests: RequestCase[]) {
    const transport = createGrpcTransport({ baseUrl }); // gRPC always uses HTTP/2 here;
    // Both versions have the same message shapes; the cast only drops the package in $typeName.
    const client = createClient(service as typeof v1.ServerReflection, transport);
    async function* send() {
      for (const messageRequest of requests) yield { host: "localhost", messageRequest };
    }
    const responses = [];
    for await (const response of client.serverReflectionInfo(send())) responses.push(response);
    return responses;
  }

  /** Decodes a file descriptor response into the file names it carries. */
  function fileNames(response: v1.ServerReflectionResponse): string[] {
    const answer = response.messageResponse;
    if (answer.case !== "fileDescriptorResponse") throw new Error(`expected files, got ${answer.case}`);
    return answer.value.fileDescriptorProto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name);
  }

  it("lists our services and the reflection services", async () => {
    const [response] = await reflect({ case: "listServices", value: "" });
    expect(response?.messageResponse.case).toBe("listServicesResponse");
    const names = response?.messageResponse.case === "listServicesResponse" ? response.messageResponse.value.service.map((s) => s.name) : [];
    expect(names).toEqual(
      expect.arrayContaining([
        "gamification.v1.ApplicationService",
        "gamification.v1.AdminService",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
      ]),
    );
    expect(response?.validHost).toBe("localhost");
  });

  it("returns the file declaring a method, with its transitive dependencies", async () => {
    const [response] = await reflect({ case: "fileContainingSymbol", value: "gamification.v1.ApplicationService.TrackMetricEvent" });
    const names = fileNames(response!);
    expect(names[0]).toBe("gamification/v1/application_service.proto");
    expect(names).toEqual(
      expect.arrayContaining([
        "google/api/annotations.proto",
        "google/api/http.proto",
        "buf/validate/validate.proto",
        "google/protobuf/descriptor.proto",
        "google/protobuf/timestamp.proto",
        "gamification/v1/user.proto",
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  it("returns a self-contained file set whose imports are all present", async () => {
    const [response] = await reflect({ case: "fileContainingSymbol", value: "gamification.v1.AdminService" });
    const answer = response!.messageResponse;
    if (answer.case !== "fileDescriptorResponse") throw new Error(answer.case);
    const files = answer.value.fileDescriptorProto.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes));
    const names = new Set(files.map((f) => f.name));
    for (const file of files) for (const dep of file.dependency) expect(names, `${file.name} imports ${dep}`).toContain(dep);
    // Method options (google.api.http) survive as extension bytes in the serialized descriptor.
    const service = files[0]?.service.find((s) => s.name === "AdminService");
    expect(service?.method.length).toBeGreaterThan(0);
    expect(service?.method.some((m) => m.options !== undefined)).toBe(true);
  });

  it("resolves messages, nested messages, enums, services, fields and files", async () => {
    const responses = await reflect(
      { case: "fileContainingSymbol", value: "gamification.v1.Metric" },
      { case: "fileContainingSymbol", value: "gamification.v1.MetricUnitType" },
      { case: "fileContainingSymbol", value: "gamification.v1.TrackMetricEventRequest.AttributesEntry" },
      { case: "fileContainingSymbol", value: "gamification.v1.ApplicationService" },
      { case: "fileContainingSymbol", value: "gamification.v1.User.device_tokens" },
      { case: "fileByFilename", value: "gamification/v1/streak.proto" },
    );
    expect(responses.map((r) => fileNames(r)[0])).toEqual([
      "gamification/v1/metric.proto",
      "gamification/v1/metric.proto",
      "gamification/v1/application_service.proto",
      "gamification/v1/application_service.proto",
      "gamification/v1/user.proto",
      "gamification/v1/streak.proto",
    ]);
  });

  it("answers extension queries", async () => {
    const [byNumber, numbers] = await reflect(
      { case: "fileContainingExtension", value: { containingType: "google.protobuf.MethodOptions", extensionNumber: 72295728 } },
      { case: "allExtensionNumbersOfType", value: "google.protobuf.MethodOptions" },
    );
    expect(fileNames(byNumber!)[0]).toBe("google/api/annotations.proto");
    expect(numbers?.messageResponse.case).toBe("allExtensionNumbersResponse");
    if (numbers?.messageResponse.case === "allExtensionNumbersResponse") {
      expect(numbers.messageResponse.value.baseTypeName).toBe("google.protobuf.MethodOptions");
      expect(numbers.messageResponse.value.extensionNumber).toContain(72295728);
    }
  });

  it("answers unknown names with NOT_FOUND and keeps the stream open", async () => {
    const responses = await reflect(
      { case: "fileContainingSymbol", value: "gamification.v1.Nope" },
      { case: "fileByFilename", value: "nope.proto" },
      { case: "fileContainingSymbol", value: "gamification.v1.ApplicationService.Nope" },
      { case: "listServices", value: "" },
    );
    expect(responses).toHaveLength(4);
    for (const response of responses.slice(0, 3)) {
      expect(response.messageResponse.case).toBe("errorResponse");
      if (response.messageResponse.case === "errorResponse") {
        expect(response.messageResponse.value.errorCode).toBe(5);
        expect(response.messageResponse.value.errorMessage).toMatch(/not found/);
      }
    }
    expect(responses[0]?.originalRequest?.messageRequest).toEqual({ case: "fileContainingSymbol", value: "gamification.v1.Nope" });
    expect(responses[3]?.messageResponse.case).toBe("listServicesResponse");
  });
});

describe("a request message that does not parse", () => {
  it("is invalid_argument (grpc-status 3), not internal", async () => {
    const session = http2.connect(baseUrl);
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
        "content-type": "application/grpc",
        te: "trailers",
      });
      // One uncompressed message of five bytes: a field 1 (host, a string) claiming 127 bytes.
      stream.end(Buffer.from([0, 0, 0, 0, 5, 0x0a, 0x7f, 0x61, 0x62, 0x63]));
      const status = await new Promise<string | undefined>((resolve, reject) => {
        let fromHeaders: string | undefined;
        stream.on("response", (headers) => (fromHeaders = headers["grpc-status"] as string | undefined));
        stream.on("trailers", (trailers) => resolve(trailers["grpc-status"] as string));
        stream.on("end", () => resolve(fromHeaders));
        stream.on("error", reject);
        stream.resume();
      });
      expect(status).toBe("3");
    } finally {
      session.close();
    }
  });
});

const buf = join(process.cwd(), "node_modules/.bin/buf");

describe.skipIf(!existsSync(buf))("buf curl", () => {
  const run = async (...args: string[]) =>
    (await promisify(execFile)(buf, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args], { timeout: 20_000 })).stdout;

  it("lists methods through reflection", async () => {
    const out = await run("--list-methods", baseUrl);
    expect(out).toContain("gamification.v1.ApplicationService/TrackMetricEvent");
    expect(out).toContain("gamification.v1.AdminService/");
  });

  it.each(["grpc-v1", "grpc-v1alpha"])("calls a method with a schema learned through %s", async (protocol) => {
    const out = await run("--reflect-protocol", protocol, "-d", '{"id":"u1"}', `${baseUrl}/gamification.v1.ApplicationService/GetUser`);
    expect(JSON.parse(out)).toEqual({ user: { id: "u1", name: "Ada", deviceTokens: ["t1"] } });
  });
});
