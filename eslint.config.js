// ESLint (flat config): typescript-eslint's type-checked recommended rules over the whole tree, the
// layering rules (what domain and API code may import), and eslint-config-prettier last so that
// formatting is Prettier's alone (`npm run format`).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

/**
 * The layers, matched on folder names rather than on today's paths, so that the rules hold once the
 * code moves to src/features/<feature>/{domain,store,api,...}: a specifier is "domain" when its last
 * folder is `domain`, "store" when it goes through a `store` folder.
 */
const DOMAIN_ALLOWED = String.raw`^(luxon|big\.js)$|^\./[^/]+$|^(\.\./)+([\w.-]+/)*domain/[^/]+$`;
const STORE = String.raw`(^|/)store/`;

export default tseslint.config(
  {
    ignores: ["src/gen/**", "sdk/**", "node_modules/**", ".proto-deps/**", "coverage/**", "bench/results/**", ".tmp/**", "fuzz/**", "tools/**", "openapi/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_name` marks a parameter or binding that is deliberately unused (a fixed signature, a rest split).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Plain JavaScript (build scripts, the load generator's worker) is not in the TypeScript project.
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: "readonly", console: "readonly", require: "readonly", module: "writable", Buffer: "readonly", URL: "readonly" } },
  },
  {
    // The domain is pure: it imports other domain code, luxon and big.js, nothing else (no node:
    // modules, no store, no pipeline, no generated protobuf code). Its unit tests may use vitest.
    files: ["src/**/domain/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: `^(?!(${DOMAIN_ALLOWED})).*$`, message: "Domain code imports only other domain code, luxon and big.js." }] },
      ],
    },
  },
  {
    files: ["src/**/domain/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: `^(?!(${DOMAIN_ALLOWED}|^vitest$)).*$`, message: "Domain tests import only domain code, luxon, big.js and vitest." }] },
      ],
    },
  },
  {
    // API adapters (and the transport that will hold the guard and REST) reach stored data through
    // the use cases, never the store itself; types may be shared.
    files: ["src/**/api/**/*.ts", "src/**/transport/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: STORE, allowTypeImports: true, message: "API code calls the use cases (pipeline), not the store." }] },
      ],
    },
  },
  {
    // Tests read JSON answers of the real server (REST bodies, child processes' output) whose
    // shapes they check with expect(); typing every body would add noise, not safety.
    files: ["test/**/*.ts", "src/**/*.test.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  prettier,
);
