// ESLint (flat config): typescript-eslint's type-checked recommended rules over the whole tree, the
// layering rules (what domain and API code may import), and eslint-config-prettier last so that
// formatting is Prettier's alone (`npm run format`).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";
import { boundaries } from "./eslint.boundaries.js";

export default defineConfig(
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
      // An async function that implements an async contract (a ResourceSpec check, a test stub of an
      // async interface) may have nothing to await; making it sync would turn its throws into
      // synchronous ones. Floating and misused promises stay errors (no-floating-promises etc.).
      "@typescript-eslint/require-await": "off",
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
    // autocannon loads its per-request hook by path in a worker thread: CommonJS, so require().
    files: ["**/*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  ...boundaries,
  {
    // Tests read JSON answers of the real server (REST bodies, child processes' output) and check
    // their shapes with expect(); the benchmarks and scripts walk untyped JSON too (REST answers,
    // the generated OpenAPI document). Typing every body would add noise, not safety. The
    // service's own code (src, tests aside) keeps the rules.
    files: ["test/**/*.ts", "src/**/*.test.ts", "bench/**/*.ts", "scripts/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  prettier,
);
