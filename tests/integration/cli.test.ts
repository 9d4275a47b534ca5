// The admin CLI's commands and refusals, in process (runCli is what scripts/cli.ts runs).
import { describe, expect, it } from "vitest";
import { runCli } from "@/lib/cli/run-cli";
import { db } from "@/lib/db/client";
import { hashToken } from "@/lib/keys/token";
import { verifyPassword } from "@/lib/auth/password";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

async function ok(argv: string[]) {
  const result = await runCli(argv);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

async function refused(argv: string[], message: RegExp) {
  const result = await runCli(argv);
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(message);
}

async function createAccount(name = "Acme") {
  return ok(["accounts:create", "--name", name, "--currency", "usd", "--balance", "100.00", "--sender", "ACME"]);
}

describe("cli", () => {
  it("accounts:create stores the balance in ten-thousandths through the ledger, with an owner", async () => {
    const created = await ok([
      "accounts:create",
      "--name",
      "Acme",
      "--currency",
      "USD",
      "--balance",
      "100.00",
      "--sender",
      "ACME",
      "--owner-email",
      "Owner@Acme.co.zw",
      "--owner-password",
      "correct horse battery",
    ]);
    expect(created).toEqual({ id: expect.any(String), owner_email: "owner@acme.co.zw" });
    const account = await db().account.findUniqueOrThrow({
      where: { id: created.id },
      include: { senderIds: true, users: true, ledger: true },
    });
    expect(account.balance).toBe(1_000_000n);
    expect(account.currency).toBe("USD");
    expect(account.senderIds.map((sender) => [sender.name, sender.status])).toEqual([["ACME", "approved"]]);
    expect(account.users.map((user) => [user.email, user.role])).toEqual([["owner@acme.co.zw", "owner"]]);
    expect(account.users[0].passwordHash).not.toContain("correct horse");
    expect(account.ledger.map((entry) => [entry.kind, entry.amount])).toEqual([["credit", 1_000_000n]]);
  });

  it("keys:create prints exactly the spec's create response and stores only a hash", async () => {
    const { id: accountId } = await createAccount();
    const key = await ok(["keys:create", "--account", accountId, "--name", "production"]);
    expect(Object.keys(key).sort()).toEqual(["account_id", "created_at", "id", "name", "token", "token_prefix"]);
    expect(key.token).toMatch(/^tmr_live_[0-9A-Za-z]{38}$/);
    expect(key.token_prefix).toBe(key.token.slice(0, 12));
    expect(key.account_id).toBe(accountId);
    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(stored.tokenHash).toBe(hashToken(key.token));
    expect(JSON.stringify(stored)).not.toContain(key.token);
  });

  it("balance:credit adds a ledger row and refuses bad amounts and unknown accounts", async () => {
    const { id } = await createAccount();
    expect(await ok(["balance:credit", "--account", id, "--amount", "25.50", "--reason", "top-up"])).toEqual({
      account: id,
      balance: "1255000",
    });
    await refused(["balance:credit", "--account", id, "--amount", "1.23456"], /at most four decimals/);
    await refused(["balance:credit", "--account", id, "--amount=-5"], /greater than zero/);
    await refused(["balance:credit", "--account", id, "--amount", "0"], /greater than zero/);
    await refused(["balance:credit", "--account", "00000000-0000-0000-0000-000000000000", "--amount", "5"], /No account/);
    await refused(["balance:credit", "--account", id], /--amount is required/);
    expect((await db().account.findUniqueOrThrow({ where: { id } })).balance).toBe(1_255_000n);
  });

  it("senders:add --pending then senders:approve", async () => {
    const { id } = await createAccount();
    expect(await ok(["senders:add", "--account", id, "--sender", "ACMEBANK", "--pending"])).toMatchObject({
      sender: "ACMEBANK",
      status: "pending",
    });
    expect(await ok(["senders:approve", "--account", id, "--sender", "ACMEBANK"])).toMatchObject({ status: "approved" });
    await refused(["senders:add", "--account", id, "--sender", "ACMEBANK"], /already exists/);
    await refused(["senders:add", "--account", id, "--sender", "THIS IS WAY TOO LONG"], /1-11 letters/);
    await refused(["senders:approve", "--account", id, "--sender", "NOPE"], /not found/);
  });

  it("users:create checks roles against accounts", async () => {
    const { id } = await createAccount();
    expect(
      await ok(["users:create", "--email", "dev@acme.co.zw", "--password", "long enough pw", "--role", "developer", "--account", id]),
    ).toMatchObject({ role: "developer", account_id: id });
    expect(await ok(["users:create", "--email", "help@tumira.co.zw", "--password", "long enough pw", "--role", "support"])).toMatchObject({
      role: "support",
      account_id: null,
    });
    await refused(["users:create", "--email", "x@y.zw", "--password", "long enough pw", "--role", "emperor"], /--role must be one of/);
    await refused(["users:create", "--email", "x@y.zw", "--password", "long enough pw", "--role", "owner"], /needs an account/);
    await refused(
      ["users:create", "--email", "dev@acme.co.zw", "--password", "long enough pw", "--role", "developer", "--account", id],
      /already exists/,
    );
    await refused(["users:create", "--email", "not-an-email", "--password", "long enough pw", "--role", "support"], /email/);
  });

  it("users:create-admin makes a platform admin with a generated password, printed once and stored hashed", async () => {
    const admin = await ok(["users:create-admin", "--email", "Root@Tumira.test"]);
    expect(admin).toEqual({
      id: expect.any(String),
      email: "root@tumira.test",
      role: "admin",
      password: expect.stringMatching(/^[\w-]{16}$/),
    });
    const stored = await db().user.findUniqueOrThrow({ where: { id: admin.id } });
    expect(stored).toMatchObject({ role: "admin", accountId: null });
    expect(stored.passwordHash).not.toContain(admin.password);
    expect(await verifyPassword(admin.password, stored.passwordHash)).toBe(true);
    expect((await ok(["users:create-admin", "--email", "second@tumira.test"])).password).not.toBe(admin.password);
    await refused(["users:create-admin", "--email", "root@tumira.test"], /already exists/);
    await refused(["users:create-admin", "--email", "not-an-email"], /email/);
    await refused(["users:create-admin"], /--email is required/);
    expect(await db().user.count({ where: { role: "admin" } })).toBe(2);
  });

  it("rates:set sets platform defaults and account overrides, refusing unknown operators", async () => {
    const { id } = await createAccount();
    expect(await ok(["rates:set", "--operator", "econet", "--price", "0.0350"])).toEqual({
      operator: "econet",
      price_per_segment: "350",
      scope: "default",
    });
    expect(await ok(["rates:set", "--operator", "netone", "--price", "0.02", "--account", id])).toEqual({
      operator: "netone",
      price_per_segment: "200",
      scope: id,
    });
    await refused(["rates:set", "--operator", "vodafone", "--price", "0.03"], /must be one of econet, netone, telecel/);
    await refused(["rates:set", "--operator", "econet", "--price", "0.00001"], /four decimals/);
    const rates = await db().rate.findMany({ where: { scope: id } });
    expect(rates.map((rate) => [rate.operator, rate.pricePerSegment])).toEqual([["netone", 200n]]);
  });

  it("numbers:assign and numbers:release give and take inbound numbers per carrier, audited, refusing bad input", async () => {
    const { id: acme } = await createAccount("Acme");
    const { id: beta } = await createAccount("Beta");
    expect(await ok(["numbers:assign", "--account", acme, "--number", "0780 000 301"])).toMatchObject({
      number: "+263780000301",
      account: acme,
      operator: "all",
    });
    expect(await ok(["numbers:assign", "--account", beta, "--number", "+263780000301", "--operator", "netone"])).toMatchObject({
      operator: "netone",
    });
    await refused(["numbers:assign", "--account", beta, "--number", "263780000301"], /already assigned to another account/);
    await refused(["numbers:assign", "--account", acme, "--number", "hello"], /neither an E\.164 number nor a short code/);
    await refused(["numbers:assign", "--account", acme, "--number", "34567", "--operator", "vodafone"], /econet, netone, telecel/);
    await refused(["numbers:assign", "--number", "34567"], /--account is required/);

    const released = await ok(["numbers:release", "--number", "+263780000301", "--operator", "netone"]);
    expect(released.released).toEqual([{ number: "+263780000301", account: beta, operator: "netone" }]);
    expect(await db().inboundNumber.count({ where: { number: "+263780000301" } })).toBe(1);
    await ok(["numbers:release", "--number", "+263780000301"]);
    await refused(["numbers:release", "--number", "+263780000301"], /is not assigned/);
    const actions = await db().auditEvent.findMany({ where: { targetType: "inbound_number" }, orderBy: { id: "asc" } });
    expect(actions.map((event) => [event.action, event.actor])).toEqual([
      ["number.assigned", "cli"],
      ["number.assigned", "cli"],
      ["number.released", "cli"],
      ["number.released", "cli"],
    ]);
  });

  it("refuses unknown commands and flags with usage", async () => {
    const unknown = await runCli(["accounts:explode"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command/);
    await refused(
      ["accounts:create", "--name", "X", "--currency", "USD", "--balance", "1", "--colour", "red"],
      /Unknown option '--colour'/,
    );
    await refused(["accounts:create", "--name", "X", "--currency", "US", "--balance", "1"], /three-letter currency/);
  });

  it("carriers:pause and carriers:resume hold a carrier by name with a reason, audited, refusing bad input", async () => {
    const paused = await ok(["carriers:pause", "telecel", "--reason", "  SMSC upgrade tonight "]);
    expect(paused).toMatchObject({ operator: "telecel", paused: true, reason: "SMSC upgrade tonight", changed: true });
    // Pausing again keeps the first pause.
    expect(await ok(["carriers:pause", "telecel", "--reason", "another"])).toMatchObject({
      reason: "SMSC upgrade tonight",
      changed: false,
    });
    expect(await db().carrierPause.findMany()).toMatchObject([{ operator: "telecel", reason: "SMSC upgrade tonight", actor: "cli" }]);

    await refused(["carriers:pause", "vodafone", "--reason", "x"], /must be one of econet, netone, telecel/);
    await refused(["carriers:pause", "econet"], /--reason is required/);
    await refused(["carriers:pause", "econet", "--reason", "   "], /--reason cannot be blank/);
    await refused(["carriers:pause", "econet", "--reason", "x"], /reason needs at least 3 characters/);
    await refused(["carriers:pause", "--reason", "x"], /carrier is required/);
    await refused(["carriers:pause", "econet", "netone", "--reason", "x"], /one operator only/);
    await refused(
      ["carriers:pause", "econet", "--reasn", "typo"],
      /Unknown option '--reasn'[^]*carriers:pause +Stop sending[^]*<operator> --reason …/,
    );
    const help = await runCli(["carriers:pause", "--help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    expect(help.stdout).toMatch(/carriers:pause +Stop sending a carrier's live messages[^]*<operator> --reason …/);

    expect(await ok(["carriers:resume", "telecel"])).toEqual({ operator: "telecel", paused: false, changed: true });
    expect(await ok(["carriers:resume", "telecel"])).toEqual({ operator: "telecel", paused: false, changed: false });
    expect(await db().carrierPause.count()).toBe(0);
    const audit = await db().auditEvent.findMany({ where: { targetType: "carrier" }, orderBy: { id: "asc" } });
    expect(audit.map((event) => [event.action, event.targetId, event.actor, JSON.parse(event.data)])).toEqual([
      ["carrier.paused", "telecel", "cli", { reason: "SMSC upgrade tonight" }],
      ["carrier.resumed", "telecel", "cli", {}],
    ]);
  });

  it("accounts:rate-limit sets an account's limit and resets it with default, audited, refusing bad input", async () => {
    const { id } = await createAccount();
    expect(await ok(["accounts:rate-limit", "--account", id, "--limit", "500"])).toEqual({ account: id, rate_limit_per_second: 500 });
    expect((await db().account.findUniqueOrThrow({ where: { id } })).rateLimitPerSecond).toBe(500);
    expect(await ok(["accounts:rate-limit", "--account", id, "--limit", "default"])).toEqual({
      account: id,
      rate_limit_per_second: "default",
    });
    expect((await db().account.findUniqueOrThrow({ where: { id } })).rateLimitPerSecond).toBeNull();
    const audit = await db().auditEvent.findMany({ where: { action: "account.rate_limit_set", targetId: id }, orderBy: { id: "asc" } });
    expect(audit.map((event) => [event.accountId, event.actor, JSON.parse(event.data)])).toEqual([
      [id, "cli", { limit: 500 }],
      [id, "cli", { limit: null }],
    ]);

    await refused(["accounts:rate-limit", "--account", id, "--limit", "0"], /--limit must be a whole number/);
    await refused(["accounts:rate-limit", "--account", crypto.randomUUID(), "--limit", "5"], /No account with id/);
  });
});
