// ESLint for the package: typescript-eslint's type-checked recommendations, and no Node
// built-ins in the library itself (it runs in browsers too; only bin/ and the tests use Node).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "docs-api/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: "./tsconfig.check.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true, allowNullish: true }],
      eqeqeq: "error",
      "prefer-const": "error",
      "no-restricted-syntax": ["error", { selector: "TSEnumDeclaration", message: "use a union of literals" }],
    },
  },
  {
    files: ["src/**/*.ts"],
    ignores: ["src/bin/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["node:*"], message: "the library runs in browsers too" }] }],
    },
  },
  { files: ["scripts/*.mjs", "examples/*.mjs", "*.js"], ...tseslint.configs.disableTypeChecked },
  { files: ["scripts/*.mjs", "examples/*.mjs", "*.js"], languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } } },
);
