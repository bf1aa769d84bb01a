import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** A static answer of the API description or its viewer (the writer leaves the body out for HEAD). */
export interface DocsResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ApiDocs {
  /** The answer for this path, or null when the path is not one of the documentation's. */
  serve(method: string, pathname: string, acceptEncoding: string | undefined): DocsResponse | null;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** The committed OpenAPI document (scripts/generate-openapi.ts writes it from the protos). */
export const OPENAPI_DOCUMENT_PATH = join(root, "openapi/openapi.json");

// The viewer's page: Swagger UI from the swagger-ui-dist package, served by this server (no CDN).
// Relative URLs, so the page also works behind a proxy that mounts the service under a prefix.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gamification service REST API</title>
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

// A script file rather than an inline script, so the page runs under a strict Content-Security-Policy.
const INIT = `window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
  persistAuthorization: false,
});
`;

const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
};

/** The files of swagger-ui-dist the page loads, by the name it loads them with. */
const VIEWER_FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

interface StaticFile {
  contentType: string;
  cacheControl: string;
  body: Buffer;
  gzipped?: Buffer;
}

/**
 * `GET /openapi.json` (the OpenAPI 3.1 document) and `GET /docs` (Swagger UI over it), with the
 * viewer's assets under `/docs/`. No API key is needed, as for /healthz. Files are read on first
 * request and kept; text is gzipped once when the client accepts it.
 */
export function createApiDocs(documentPath = OPENAPI_DOCUMENT_PATH): ApiDocs {
  const viewerDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const files = new Map<string, StaticFile | null>();

  function load(pathname: string): StaticFile | null | undefined {
    if (files.has(pathname)) return files.get(pathname);
    let file: StaticFile | null | undefined;
    if (pathname === "/openapi.json") {
      file = existsSync(documentPath) ? { contentType: "application/json; charset=utf-8", cacheControl: "no-cache", body: readFileSync(documentPath) } : null;
    } else if (pathname === "/docs") {
      file = { contentType: "text/html; charset=utf-8", cacheControl: "no-cache", body: Buffer.from(PAGE) };
    } else if (pathname === "/docs/init.js") {
      file = { contentType: "text/javascript; charset=utf-8", cacheControl: "no-cache", body: Buffer.from(INIT) };
    } else if (pathname.startsWith("/docs/")) {
      const name = pathname.slice("/docs/".length);
      const contentType = Object.hasOwn(VIEWER_FILES, name) ? VIEWER_FILES[name] : undefined;
      if (contentType === undefined) return undefined;
      file = { contentType, cacheControl: "public, max-age=3600", body: readFileSync(join(viewerDir, name)) };
    } else {
      return undefined;
    }
    files.set(pathname, file);
    return file;
  }

  return {
    serve(method, pathname, acceptEncoding) {
      const isDocs = pathname === "/openapi.json" || pathname === "/docs" || pathname.startsWith("/docs/");
      if (!isDocs) return null;
      // The page's URLs are relative to /docs: send /docs/ there (relative, for proxies with a prefix).
      if (pathname === "/docs/" && (method === "GET" || method === "HEAD")) return { status: 308, headers: { location: "../docs" }, body: Buffer.alloc(0) };
      const file = load(pathname);
      if (file === undefined) return json(404, { error: `No route for ${method} ${pathname}` });
      if (method !== "GET" && method !== "HEAD") return json(405, { error: `Method ${method} not allowed on ${pathname}; use GET` }, { allow: "GET, HEAD" });
      if (file === null) return json(404, { error: "The OpenAPI document is missing: run `npm run generate:openapi`" });
      const headers: Record<string, string> = {
        "content-type": file.contentType,
        "cache-control": file.cacheControl,
        vary: "accept-encoding",
        ...(pathname === "/docs" ? PAGE_HEADERS : { "x-content-type-options": "nosniff" }),
      };
      let body = file.body;
      if (!file.contentType.startsWith("image/") && /\bgzip\b/.test(acceptEncoding ?? "")) {
        file.gzipped ??= gzipSync(file.body);
        body = file.gzipped;
        headers["content-encoding"] = "gzip";
      }
      return { status: 200, headers, body };
    },
  };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): DocsResponse {
  return { status, headers: { ...headers, "content-type": "application/json; charset=utf-8" }, body: Buffer.from(JSON.stringify(body)) };
}
