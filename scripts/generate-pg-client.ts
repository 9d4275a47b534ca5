// Generates the PostgreSQL Prisma Client next to the SQLite one (run by postinstall).
import { execFileSync } from "node:child_process";
import { root, writePostgresSchema } from "./prisma-schemas";

const schema = writePostgresSchema();
execFileSync("npx", ["prisma", "generate", "--schema", schema], { cwd: root, stdio: "inherit" });
