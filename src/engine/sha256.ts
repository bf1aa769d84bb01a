import { hash } from "node:crypto";
import type { Sha256 } from "./domain/hashing.js";

/** The SHA-256 the domain is given (engine/domain/hashing.ts); one-shot `hash` costs about half a `createHash` object. */
export const sha256: Sha256 = (text) => hash("sha256", text, "buffer");
