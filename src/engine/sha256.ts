import { createHash } from "node:crypto";
import type { Sha256 } from "./domain/hashing.js";

/** The SHA-256 the domain is given (engine/domain/hashing.ts). */
export const sha256: Sha256 = (text) => createHash("sha256").update(text, "utf8").digest();
