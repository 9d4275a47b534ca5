// `npm run db:migration -- <name>`: writes the next migration for both dialects from a
// schema-to-schema diff (the snapshot of the last migration → prisma/schema.prisma), then updates
// the snapshot. Needs no database and no network.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { derivePostgresSchema, root, sqliteSchemaPath } from "./prisma-schemas";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("Usage: npm run db:migration -- <name_in_snake_case>");
  process.exit(2);
}

const migrationsRoot = path.join(root, "prisma", "migrations");
const snapshotPath = path.join(migrationsRoot, "schema.snapshot.prisma");
const generatedDir = path.join(root, "prisma", "generated");
fs.mkdirSync(generatedDir, { recursive: true });

function diff(from: string, to: string): string {
  return execFileSync("npx", ["prisma", "migrate", "diff", "--from-schema-datamodel", from, "--to-schema-datamodel", to, "--script"], {
    cwd: root,
    encoding: "utf8",
  });
}

const pairs = {
  sqlite: { from: snapshotPath, to: sqliteSchemaPath },
  postgres: {
    from: writeTemp("snapshot.postgres.prisma", derivePostgresSchema(fs.readFileSync(snapshotPath, "utf8"))),
    to: writeTemp("schema.postgres.prisma", derivePostgresSchema(fs.readFileSync(sqliteSchemaPath, "utf8"))),
  },
};

function writeTemp(file: string, content: string): string {
  const target = path.join(generatedDir, file);
  fs.writeFileSync(target, content);
  return target;
}

const existing = fs.readdirSync(path.join(migrationsRoot, "sqlite")).filter((entry) => /^\d{4}_/.test(entry));
const next = String(existing.length + 1).padStart(4, "0");
for (const [dialect, { from, to }] of Object.entries(pairs)) {
  const script = diff(from, to);
  if (!/\S/.test(script.replace(/^--.*$/gm, ""))) {
    console.log(`${dialect}: no changes`);
    continue;
  }
  const dir = path.join(migrationsRoot, dialect, `${next}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), script);
  console.log(`${dialect}: wrote ${path.relative(root, dir)}/migration.sql`);
}
fs.copyFileSync(sqliteSchemaPath, snapshotPath);
