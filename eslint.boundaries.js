// The layering rules, apart so that test/tooling/lint-boundaries.test.ts can check them on sample imports.
// Matched on folder names (src/features/<feature>/{domain,store,api}, src/engine/{domain,store}, ...):
// a specifier is "domain" when its last folder is `domain`, "store" when it goes through a `store` folder.

import { readdirSync } from "node:fs";

/** Privacy's erasure must find every trace of a user in every feature's store. */
const CROSS_STORE_EXEMPT = new Set(["privacy"]);

const DOMAIN_ALLOWED = String.raw`^(luxon|big\.js)$|^\./[^/]+$|^(\.\./)+([\w.-]+/)*domain/[^/]+$`;
const STORE = String.raw`(^|/)store/`;

/**
 * Flat-config blocks: what domain code and API code may import.
 * @type {import("eslint").Linter.Config[]}
 */
export const boundaries = [
  {
    // The domain is pure: it imports other domain code, luxon and big.js, nothing else (no node:
    // modules, no store, no use cases, no generated protobuf code). Its unit tests may use vitest.
    files: ["src/**/domain/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: `^(?!(${DOMAIN_ALLOWED})).*$`, message: "Domain code imports only other domain code, luxon and big.js." }] },
      ],
    },
  },
  {
    files: ["src/**/domain/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^(?!(${DOMAIN_ALLOWED}|^vitest$|.*/sha256\\.js$)).*$`,
              message: "Domain tests import only domain code, luxon, big.js, vitest and the SHA-256 adapter.",
            },
          ],
        },
      ],
    },
  },
  {
    // API adapters (and the transport: guard, REST) reach stored data through
    // the use cases, never the store itself; types may be shared.
    files: ["src/**/api/**/*.ts", "src/**/transport/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [{ regex: STORE, allowTypeImports: true, message: "API code calls the use cases, not the store." }] },
      ],
    },
  },
  ...featureStoreRules(),
];

/**
 * No feature reaches into another feature's store: it asks that feature's use cases. The engine
 * and the workers may use every store (they carry out the plans that span features), and privacy's
 * erasure must find every trace of a user, so it is the one feature exempt. Domain and API code
 * have stricter rules above, so these blocks cover the use cases and the feature's own store.
 * @returns {import("eslint").Linter.Config[]}
 */
export function featureStoreRules(features = featureNames()) {
  return features
    .filter((feature) => !CROSS_STORE_EXEMPT.has(feature))
    .map((feature) => ({
      files: [`src/features/${feature}/**/*.ts`],
      ignores: [`src/features/${feature}/domain/**`, `src/features/${feature}/api/**`],
      rules: {
        "@typescript-eslint/no-restricted-imports": [
          "error",
          {
            patterns: [
              {
                regex: String.raw`(^|/)\.\./(?!(${feature}|engine|workers)/)[\w-]+/store/`,
                allowTypeImports: true,
                message: `A feature uses another feature's use cases, not its store (${feature}).`,
              },
            ],
          },
        ],
      },
    }));
}

function featureNames() {
  return readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}
