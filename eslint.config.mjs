// ESLint: TypeScript, React hooks and Next's rules, and the layering rule (docs/README.md, "Working on the code").
// `npm run lint` runs it with --max-warnings 0, then `prettier --check .`.
import { defineConfig, globalIgnores } from "eslint/config";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import nextPlugin from "@next/eslint-plugin-next";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import globals from "globals";

/** Domains: the business logic shared by the API, the dashboard and the CLI. */
const DOMAINS = [
  "lib/accounts",
  "lib/audit",
  "lib/auth",
  "lib/carriers",
  "lib/delivery",
  "lib/inbound",
  "lib/keys",
  "lib/ledger",
  "lib/messages",
  "lib/opt-outs",
  "lib/rates",
  "lib/senders",
  "lib/smpp",
  "lib/smsc",
  "lib/users",
  "lib/webhooks",
];
/** Entry surfaces: what runs processes and answers people; nothing below them imports them. */
const DASHBOARD = ["app", "components", "lib/dashboard"];
const SERVER = ["lib/server", "server.ts"];
const API = ["lib/api"];
const CLI = ["lib/cli"];
/** Prepares a database for a process (migrations, then the domains' defaults): used by entries only. */
const SETUP = ["lib/setup"];
/** Shared vocabulary (message statuses, the state machine): importable by the domains and by lib/db. */
const MODEL = ["lib/model"];
const DB = ["lib/db"];

const ENTRIES = [...DASHBOARD, ...SERVER, ...API, ...CLI, ...SETUP];

const layerZones = [
  {
    target: [...DOMAINS, ...MODEL],
    from: ENTRIES,
    message: "A domain never imports the API, the dashboard, the server, the CLI or lib/setup: move the shared part into the domain.",
  },
  {
    target: DB,
    from: [...DOMAINS, ...ENTRIES],
    message: "lib/db (storage) never imports a domain: shared vocabulary belongs in lib/model.",
  },
  { target: MODEL, from: [...DOMAINS, ...DB], message: "lib/model is vocabulary the domains and lib/db import; it imports neither." },
  { target: API, from: [...DASHBOARD, ...SERVER, ...CLI], message: "lib/api never imports the dashboard, the server or the CLI." },
  { target: SETUP, from: [...DASHBOARD, ...SERVER, ...API, ...CLI], message: "lib/setup is used by the entries; it never imports them." },
  { target: DASHBOARD, from: [...SERVER, ...CLI], message: "The dashboard never imports the server or the CLI." },
  { target: CLI, from: [...API, ...DASHBOARD, ...SERVER], message: "The CLI calls domains, not the API, the dashboard or the server." },
  // The leaf modules (lib/env.ts, lib/errors.ts, lib/log.ts, ...) are importable from anywhere, so they import no layer.
  { target: "lib/*.ts", from: "lib/*/**", message: "A leaf module of lib/ imports no layer." },
  { target: "lib/*.ts", from: ["app", "components", "server.ts"], message: "A leaf module of lib/ imports no layer." },
];

export default defineConfig(
  globalIgnores([
    "node_modules/",
    ".next/",
    "lib/db/generated/",
    "prisma/generated/",
    "dist/",
    "next-env.d.ts",
    "data/",
    "test-results/",
    "playwright-report/",
    "bench/results/",
    "coverage/",
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts,mjs,js}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".mts", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: layerZones }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
    },
  },
  {
    files: ["**/*.{js,cjs,mjs}"],
    languageOptions: { globals: globals.node },
  },
  {
    // CommonJS files: next.config.js and the launcher that runs the built server with plain node.
    files: ["**/*.{js,cjs}"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read JSON answers whose shape is what they assert; typing each one first would add nothing.
    files: ["tests/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Declarations of untyped third-party packages describe them as loosely as they are.
    files: ["types/**/*.d.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
