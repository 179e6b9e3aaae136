// npm run lint: every TypeScript file, type-aware, each with the tsconfig project that owns it
// (tsconfig.json's references). See CONTRIBUTING.md.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";
import noImportCycle from "./eslint-rules/no-import-cycle.js";
import noTestImports from "./eslint-rules/no-test-imports.js";

export default defineConfig(
  globalIgnores(["dist/", ".tsbuild/", "coverage/", "test-artifacts/", "data/", "tools/inspector/"]),
  { files: ["**/*.js"], extends: [js.configs.recommended] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { local: { rules: { "no-import-cycle": noImportCycle, "no-test-imports": noTestImports } } },
    rules: {
      "local/no-import-cycle": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // an aborted signal's reason is passed on as it is, whatever it is
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true }],
      // `const { drop: _, ...rest } = x` leaves a field out on purpose; `_` names an unused parameter
      "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true, argsIgnorePattern: "^_" }],
      // async functions without await are how the memory store and the fakes meet promise interfaces
      "@typescript-eslint/require-await": "off",
      // a function longer than a screen does several things: split it by what each part decides
      "max-lines-per-function": ["error", { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // the transport knows no jobs: what a session's stream carries comes through its interfaces
    files: ["server/mcp/http/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/jobs/**"], message: "server/mcp/http/ is the transport: it imports nothing of the jobs." },
          ],
        },
      ],
    },
  },
  {
    // product code never imports test code (test-kit/, *.test.* files); tests beside it may
    files: ["{server,shared,web}/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "local/no-test-imports": "error" },
  },
  {
    // tests and benchmarks read untyped replies (JSON, the SDK's results) on purpose and assert on them
    files: ["**/*.test.{ts,tsx}", "test-kit/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // a test's describe block and a bench's scenario read as one story; their steps are the helpers
      "max-lines-per-function": "off",
    },
  },
  {
    // the widget and the harness hand React props and zustand actions around as plain closures,
    // typed as methods; nothing there is a class method that could lose its `this`
    files: ["web/**"],
    rules: { "@typescript-eslint/unbound-method": "off" },
  },
);
