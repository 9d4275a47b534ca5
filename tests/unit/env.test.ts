import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { ENV_VARIABLES, getEnv, getLogLevel, loadEnv, publishLocalSecrets, resetEnvForTests } from "@/lib/env";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tumira-env-"));

describe("env", () => {
  it("defaults to an SQLite file under DATA_DIR and generates local secrets once", () => {
    const env = loadEnv({ DATA_DIR: dataDir });
    expect(env.DATABASE_URL).toBe(`file:${path.join(dataDir, "tumira.db")}`);
    expect(env.PORT).toBe(3000);
    expect(env.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(loadEnv({ DATA_DIR: dataDir }).APP_SECRET).toBe(env.APP_SECRET);
    expect(fs.statSync(path.join(dataDir, "secrets.json")).mode & 0o777).toBe(0o600);
  });

  it("takes the secrets another process published first instead of failing", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tumira-env-race-")), "secrets.json");
    const first = { appSecret: "a".repeat(43), nextAuthSecret: "b".repeat(43) };
    expect(publishLocalSecrets(file, first)).toEqual(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // A process that found no file a moment ago and publishes its own loses to the one there.
    expect(publishLocalSecrets(file, { appSecret: "c".repeat(43), nextAuthSecret: "d".repeat(43) })).toEqual(first);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["secrets.json"]);
  });

  it("names the variable that is wrong", () => {
    expect(() => loadEnv({ DATA_DIR: dataDir, PORT: "seventy" })).toThrow(/PORT/);
    expect(() => loadEnv({ DATA_DIR: dataDir, DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL: must be file:/);
    expect(() => loadEnv({ DATA_DIR: dataDir, SMPP_ECONET: "http://x" })).toThrow(/SMPP_ECONET/);
    expect(() => loadEnv({ DATA_DIR: dataDir, METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
    for (const bad of ["0", "-2", "1.5", "two"])
      expect(() => loadEnv({ DATA_DIR: dataDir, HTTP_PROCESSES: bad })).toThrow(/HTTP_PROCESSES/);
    for (const bad of ["0", "1.5", "ten"]) expect(() => loadEnv({ DATA_DIR: dataDir, PG_POOL_SIZE: bad })).toThrow(/PG_POOL_SIZE/);
  });

  it("reads LOG_LEVEL for the logger on its own, info when unset or blank, and names it when it is not a level", () => {
    expect(getLogLevel({})).toBe("info");
    expect(getLogLevel({ LOG_LEVEL: "" })).toBe("info");
    expect(getLogLevel({ LOG_LEVEL: "debug" })).toBe("debug");
    expect(() => getLogLevel({ LOG_LEVEL: "verbose" })).toThrow(/^Invalid configuration:\n {2}LOG_LEVEL: /);
  });

  it("reads PG_POOL_SIZE as a whole number of connections, 10 when unset", () => {
    expect(loadEnv({ DATA_DIR: dataDir }).PG_POOL_SIZE).toBe(10);
    expect(loadEnv({ DATA_DIR: dataDir, PG_POOL_SIZE: "25" }).PG_POOL_SIZE).toBe(25);
  });

  it("is described variable for variable by .env.example and docs/operations.md", () => {
    const example = fs.readFileSync(".env.example", "utf8");
    const exampleVariables = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
    expect([...exampleVariables].sort()).toEqual([...ENV_VARIABLES].sort());
    const operations = fs.readFileSync("docs/operations.md", "utf8");
    // A setting of every carrier is one row: SMPP_<CARRIER>_MODE.
    const rowName = (name: string) => name.replace(/^SMPP_(ECONET|NETONE|TELECEL)_/, "SMPP_<CARRIER>_");
    expect(ENV_VARIABLES.filter((name) => !operations.includes(`\`${rowName(name)}\``))).toEqual([]);
  });

  it("reads RECEIPT_TIMEOUT_HOURS as whole hours, 72 when unset, and names it when it is not", () => {
    expect(loadEnv({ DATA_DIR: dataDir }).RECEIPT_TIMEOUT_HOURS).toBe(72);
    expect(loadEnv({ DATA_DIR: dataDir, RECEIPT_TIMEOUT_HOURS: "24" }).RECEIPT_TIMEOUT_HOURS).toBe(24);
    for (const bad of ["0", "1.5", "soon", "8761"])
      expect(() => loadEnv({ DATA_DIR: dataDir, RECEIPT_TIMEOUT_HOURS: bad })).toThrow(/RECEIPT_TIMEOUT_HOURS/);
  });

  it("reads HTTP_PROCESSES as a count, auto as one per core, and 1 when unset", () => {
    expect(loadEnv({ DATA_DIR: dataDir }).HTTP_PROCESSES).toBe(1);
    expect(loadEnv({ DATA_DIR: dataDir, HTTP_PROCESSES: "3" }).HTTP_PROCESSES).toBe(3);
    expect(loadEnv({ DATA_DIR: dataDir, HTTP_PROCESSES: "auto" }).HTTP_PROCESSES).toBe(os.availableParallelism());
  });

  it("gives next-auth the dashboard URL it defaults to when NEXTAUTH_URL is unset or blank (as a copied .env.example leaves it)", () => {
    const saved = { NEXTAUTH_URL: process.env.NEXTAUTH_URL, PORT: process.env.PORT, DATA_DIR: process.env.DATA_DIR };
    try {
      Object.assign(process.env, { NEXTAUTH_URL: "", PORT: "4321", DATA_DIR: dataDir });
      resetEnvForTests();
      expect(getEnv().NEXTAUTH_URL).toBe("http://localhost:4321");
      expect(process.env.NEXTAUTH_URL).toBe("http://localhost:4321");
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetEnvForTests();
    }
  });
});
