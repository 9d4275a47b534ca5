// PostgreSQL's message store. Every round trip to PostgreSQL costs the Node process far more CPU and
// wall time than the SQL it carries, so every batch of sends (single or bulk, live or test, of one
// account or several, with Idempotency-Keys or without) is one read of what pricing needs and ONE
// autocommitted statement that checks the keys, claims the Idempotency-Keys, holds the charges and
// writes every bulk, message and ledger row. The statement writes all of it or, when what it
// checks no longer holds (a key revoked, an Idempotency-Key taken or the balance spent since the
// read), fails as a whole and the batch is read and priced again.
import { AppError } from "@/lib/errors";
import { unknownApiKeyError } from "@/lib/model/api-keys";
import { MessageStatus } from "@/lib/model/message-status";
import { DEFAULT_SCOPE, resolveRates } from "@/lib/model/rates";
import { IdempotencyKeyTakenError, type AcceptedSend, type PreparedSend, type PriceSend, type SendingAccount } from "@/lib/model/sends";
import { toDbTime, type Sql } from "@/lib/db/sql";
import type { KeyStore, MessageStore, SendOutcome } from "../types";
import { findUnusableKeys } from "../shared/api-keys";
import { readMessages } from "../shared/read-messages";

/** Keys read FOR SHARE: a revoke waits for the statement or transaction that uses them. */
const HOLD_KEYS = ` ORDER BY "id" FOR SHARE`;
/** SQLSTATE of the write's refusal (its guard divides by zero): nothing was written. */
const WRITE_REFUSED = "22012";

export function postgresMessageStore(database: Sql): MessageStore {
  return {
    // One batch's statement overlaps another's round trips (an account's row lock is held only by the statement).
    concurrentSendBatches: 2,
    async commitSends(sends, price) {
      // The first read trusts the keys the API has just authenticated and the Idempotency-Keys it has
      // just found free; the write checks them. Each refusal of the write means another statement
      // changed what this batch read: read again, checking every key, and price again.
      for (let checkKeys = false; ; checkKeys = true) {
        const outcomes = await writeSends(database, sends, price, checkKeys);
        if (outcomes) return outcomes;
      }
    },
    readMessages: (reads) => readMessages(database, reads),
  };
}

/**
 * Read unlocked: the write checks again what it relies on. The lists travel as JSON: the planner
 * costs a JSON list alike whatever it holds, so PostgreSQL keeps one generic plan for the statement
 * instead of planning it again for every batch (as it does for arrays, whose length it sees). The
 * keys are read only when checked (after a refused write): two texts.
 */
function readSendingAccountsText(checkKeys: boolean): string {
  return `
WITH account_ids AS (SELECT json_array_elements_text(CAST(:accountIds AS JSON)) AS "id"),
  recipients AS (SELECT json_array_elements_text(CAST(:recipients AS JSON)) AS "number")${checkKeys ? KEY_LISTS : ""}
SELECT a."id", a."balance", a."currency",
  ARRAY(SELECT s."name" FROM "SenderId" s WHERE s."accountId" = a."id" AND s."status" = 'approved') AS "approvedSenders",
  ARRAY(SELECT o."number" FROM "OptOut" o WHERE o."accountId" = a."id" AND o."number" IN (SELECT "number" FROM recipients)) AS "optedOut",
  (SELECT json_agg(json_build_object('scope', r."scope", 'operator', r."operator", 'pricePerSegment', r."pricePerSegment"))
   FROM "Rate" r WHERE r."scope" IN (CAST(:defaultScope AS TEXT), a."id")) AS "rates"${checkKeys ? KEY_COLUMNS : ""}
FROM "Account" a WHERE a."id" IN (SELECT "id" FROM account_ids)`;
}

const KEY_LISTS = `,
  idempotency_keys AS (SELECT json_array_elements_text(CAST(:idempotencyKeys AS JSON)) AS "key"),
  key_ids AS (SELECT json_array_elements_text(CAST(:keyIds AS JSON)) AS "id")`;
const KEY_COLUMNS = `,
  ARRAY(SELECT i."key" FROM "IdempotencyKey" i
    WHERE i."accountId" = a."id" AND i."key" IN (SELECT "key" FROM idempotency_keys) AND i."expiresAt" > CAST(:at AS TIMESTAMP(3))) AS "takenKeys",
  ARRAY(SELECT k."id" FROM "ApiKey" k
    WHERE k."id" IN (SELECT "id" FROM key_ids) AND k."accountId" = a."id" AND k."active"
      AND (k."expiresAt" IS NULL OR k."expiresAt" > CAST(:at AS TIMESTAMP(3)))) AS "usableKeys"`;
const READ_SENDING_ACCOUNTS = { trusted: readSendingAccountsText(false), checked: readSendingAccountsText(true) };

function readParams(sends: PreparedSend[]) {
  return {
    defaultScope: DEFAULT_SCOPE,
    accountIds: JSON.stringify([...new Set(sends.map((send) => send.accountId))]),
    recipients: JSON.stringify([...new Set(sends.flatMap((send) => send.recipients.map(({ to }) => to)))]),
  };
}

/** The checked read's lists: the batch's Idempotency-Keys and API keys. */
function keyParams(sends: PreparedSend[], now: Date) {
  return {
    idempotencyKeys: JSON.stringify([...new Set(sends.flatMap((send) => send.idempotency?.key ?? []))]),
    keyIds: JSON.stringify([...new Set(sends.flatMap((send) => send.apiKeyId ?? []))]),
    at: toDbTime(now),
  };
}

/** With checkKeys, which of the batch's Idempotency-Keys the account holds and which of its keys still authenticate. */
type SendingState = SendingAccount & { takenKeys: Set<string>; usableKeys: Set<string> };

/**
 * Each account of the batch: its balance, currency, approved sender ids, rates and which of the
 * batch's recipients are on its opt-out list (and, with checkKeys, its keys); in one round trip.
 */
async function readSendingAccounts(
  database: Sql,
  sends: PreparedSend[],
  now: Date,
  checkKeys: boolean,
): Promise<Map<string, SendingState>> {
  const rows = await database.all<{
    id: string;
    balance: number | string;
    currency: string;
    approvedSenders: string[];
    optedOut: string[];
    rates: Array<{ scope: string; operator: string; pricePerSegment: number | string }> | null;
    takenKeys?: string[];
    usableKeys?: string[];
  }>(
    checkKeys ? READ_SENDING_ACCOUNTS.checked : READ_SENDING_ACCOUNTS.trusted,
    checkKeys ? Object.assign(readParams(sends), keyParams(sends, now)) : readParams(sends),
    { prepared: true },
  );
  return new Map(
    rows.map((row) => {
      const rates = (row.rates ?? []).map((rate) => ({ ...rate, pricePerSegment: BigInt(rate.pricePerSegment) }));
      const account: SendingState = {
        balance: BigInt(row.balance),
        currency: row.currency,
        rates: resolveRates(rates, row.id),
        approvedSenders: new Set(row.approvedSenders),
        optedOut: new Set(row.optedOut),
        takenKeys: new Set(row.takenKeys),
        usableKeys: new Set(row.usableKeys),
      };
      return [row.id, account];
    }),
  );
}

/**
 * Written all or nothing. The accounts are locked in id order (no deadlocks between batches of
 * several accounts); each hold lands only while the balance, as it is at the row lock, covers it;
 * the keys are read FOR SHARE (a revoke waits for this statement); an Idempotency-Key is claimed
 * only when no other request holds it (one still running is waited for). The last SELECT divides by
 * zero unless every key was usable, every hold landed and every Idempotency-Key was claimed, which
 * fails the statement and so undoes every row it wrote. Row-wise values travel as one array per
 * column, so the text is the same for any batch of its shape. A message's turn travels in epoch
 * milliseconds; its status, next attempt and expiry follow from its send_at in SQL. Each ledger
 * row's balance after it is an offset from its account's balance after the hold.
 *
 * Two shapes write the messages. The general one: what sends share (account, key, sender, terms)
 * travels once per distinct send profile, the sends name their profile, and the message rows their
 * send, by position. Single sends of one profile (the group commit's usual batch) take a plainer
 * text: the profile travels as single values and each send is its one message row, which spares
 * PostgreSQL the joins (docs/decisions/0024-single-sends-of-one-profile.md).
 */
function writeSendsText(shape: WriteShape): string {
  const severalAccounts = shape === "severalAccounts";
  return `
WITH usable_keys AS (
  SELECT "id" FROM "ApiKey"
  WHERE "id" = ANY(CAST(:keyIds AS TEXT[])) AND "active" AND ("expiresAt" IS NULL OR "expiresAt" > CAST(:at AS TIMESTAMP(3)))
  ORDER BY "id" FOR SHARE
${severalAccounts ? HOLD_SEVERAL_ACCOUNTS : HOLD_ONE_ACCOUNT}), claimed AS (
  INSERT INTO "IdempotencyKey" ("accountId", "key", "requestHash", "responseStatus", "responseBody", "createdAt", "expiresAt")
  SELECT c.account_id, c.key, c.request_hash, c.status, c.body, CAST(:at AS TIMESTAMP(3)), c.expires_at
  FROM unnest(CAST(:claimAccountIds AS TEXT[]), CAST(:claimKeys AS TEXT[]), CAST(:claimHashes AS TEXT[]),
    CAST(:claimStatuses AS INTEGER[]), CAST(:claimBodies AS TEXT[]), CAST(:claimExpiresAts AS TIMESTAMP(3)[]))
    AS c(account_id, key, request_hash, status, body, expires_at)
  ON CONFLICT ("accountId", "key") DO UPDATE SET "requestHash" = excluded."requestHash", "responseStatus" = excluded."responseStatus",
    "responseBody" = excluded."responseBody", "createdAt" = excluded."createdAt", "expiresAt" = excluded."expiresAt"
  WHERE "IdempotencyKey"."expiresAt" <= CAST(:at AS TIMESTAMP(3))
  RETURNING 1
${shape === "singlesOfOneProfile" ? WRITE_SINGLES_OF_ONE_PROFILE : WRITE_PROFILED_SENDS})
SELECT 1 / CAST((SELECT COUNT(*) FROM usable_keys) = CAST(:keyCount AS INTEGER)
  AND (SELECT COUNT(*) FROM holds) = CAST(:holdCount AS INTEGER)
  AND (SELECT COUNT(*) FROM claimed) = CAST(:claimCount AS INTEGER) AS INTEGER) AS "written"`;
}

/** The message row's columns: its profile's, its send's, its queue timing, the constants, its own. */
const MESSAGE_COLUMNS = `"accountId", "apiKeyId", "userId", "senderId", "currency", "webhookUrl", "test", "priority", "validityPeriod",
    "bulkSendId", "body", "segments", "encoding", "sendAt", "status", "nextAttemptAt", "expiresAt",
    "operatorResponse", "receivedAt", "createdAt", "updatedAt", "id", "to", "operator", "charge", "turn"`;
const LEDGER_COLUMNS = `"accountId", "kind", "amount", "balanceAfter", "messageId", "bulkSendId", "actor", "createdAt"`;

/** The values of MESSAGE_COLUMNS: the profile's and the bulk row's by `profile`, the send's by its prefix `s`, the message's from `m`. */
function messageValues(profile: (column: keyof typeof SINGLE_PROFILE) => string, s: string): string {
  const at = "CAST(:at AS TIMESTAMP(3))";
  const validityPeriod = profile("validity_period");
  return `${profile("account_id")}, ${profile("api_key_id")}, ${profile("user_id")}, ${profile("sender_id")}, ${profile("currency")},
    ${profile("webhook_url")}, ${profile("test")}, ${profile("priority")}, ${validityPeriod}, ${profile("bulk_send_id")},
    ${s}body, ${s}segments, ${s}encoding, ${s}send_at,
    CASE WHEN ${s}send_at IS NULL THEN '${MessageStatus.enqueued}' ELSE '${MessageStatus.created}' END, COALESCE(${s}send_at, ${at}),
    COALESCE(${s}send_at, ${at}) + ${validityPeriod} * INTERVAL '1 second',
    '', ${at}, ${at}, ${at}, m.id, m."to", m.operator, m.charge, m.turn`;
}

/** A single profile's values, as the singles' statement takes them. */
const SINGLE_PROFILE = {
  account_id: "CAST(:accountId AS TEXT)",
  api_key_id: "CAST(:apiKeyId AS TEXT)",
  user_id: "CAST(:userId AS TEXT)",
  sender_id: "CAST(:senderId AS TEXT)",
  currency: "CAST(:currency AS TEXT)",
  webhook_url: "CAST(:webhookUrl AS TEXT)",
  test: "CAST(:test AS BOOLEAN)",
  priority: "CAST(:priority AS TEXT)",
  validity_period: "CAST(:validityPeriod AS INTEGER)",
  bulk_send_id: "CAST(NULL AS TEXT)",
};

/** Profiles, sends, bulk rows, message rows and ledger rows, each send and message naming its profile and send by position. */
const WRITE_PROFILED_SENDS = `), profiles AS (
  SELECT * FROM unnest(CAST(:accountIds AS TEXT[]), CAST(:apiKeyIds AS TEXT[]), CAST(:userIds AS TEXT[]), CAST(:actors AS TEXT[]),
      CAST(:currencies AS TEXT[]), CAST(:tests AS BOOLEAN[]), CAST(:senderIds AS TEXT[]), CAST(:webhookUrls AS TEXT[]),
      CAST(:priorities AS TEXT[]), CAST(:validityPeriods AS INTEGER[]))
    WITH ORDINALITY AS p(account_id, api_key_id, user_id, actor, currency, test, sender_id, webhook_url, priority, validity_period, n)
), sends AS (
  SELECT p.account_id, p.api_key_id, p.user_id, p.actor, p.currency, p.test, p.sender_id, p.webhook_url, p.priority, p.validity_period,
    s.bulk_send_id, s.body, s.segments, s.encoding, s.send_at, s.total, s.charge, s.n
  FROM unnest(CAST(:profileNumbers AS INTEGER[]), CAST(:bulkSendIds AS TEXT[]), CAST(:bodies AS TEXT[]), CAST(:segments AS INTEGER[]),
      CAST(:encodings AS TEXT[]), CAST(:sendAts AS TIMESTAMP(3)[]), CAST(:totals AS INTEGER[]), CAST(:charges AS BIGINT[]))
    WITH ORDINALITY AS s(profile_n, bulk_send_id, body, segments, encoding, send_at, total, charge, n)
    JOIN profiles p ON p.n = s.profile_n
), bulk AS (
  INSERT INTO "BulkSend" ("id", "accountId", "apiKeyId", "body", "senderId", "webhookUrl", "total", "charge", "currency", "test", "createdAt")
  SELECT s.bulk_send_id, s.account_id, s.api_key_id, s.body, s.sender_id, s.webhook_url, s.total, s.charge, s.currency, s.test,
    CAST(:at AS TIMESTAMP(3))
  FROM sends s WHERE s.bulk_send_id IS NOT NULL
), messages AS (
  INSERT INTO "Message" (${MESSAGE_COLUMNS})
  SELECT ${messageValues((column) => `s.${column}`, "s.")}
  FROM unnest(CAST(:sendNumbers AS INTEGER[]), CAST(:ids AS TEXT[]), CAST(:tos AS TEXT[]), CAST(:operators AS TEXT[]),
      CAST(:messageCharges AS BIGINT[]), CAST(:turns AS BIGINT[])) AS m(send_n, id, "to", operator, charge, turn)
    JOIN sends s ON s.n = m.send_n
), ledger AS (
  INSERT INTO "LedgerEntry" (${LEDGER_COLUMNS})
  SELECT s.account_id, 'hold', -l.charge, holds."balance" + l.after_final, l.id, s.bulk_send_id, s.actor, CAST(:at AS TIMESTAMP(3))
  FROM unnest(CAST(:sendNumbers AS INTEGER[]), CAST(:ids AS TEXT[]), CAST(:messageCharges AS BIGINT[]), CAST(:afterFinal AS BIGINT[]))
      WITH ORDINALITY AS l(send_n, id, charge, after_final, n)
    JOIN sends s ON s.n = l.send_n
    JOIN holds ON holds."id" = s.account_id
  WHERE NOT s.test
  ORDER BY l.n
`;

/**
 * Single sends of one profile: the profile as single values, each send its one message row, no
 * bulk row. A test profile holds nothing, so its holds and ledger rows are none.
 */
const WRITE_SINGLES_OF_ONE_PROFILE = `), messages AS (
  INSERT INTO "Message" (${MESSAGE_COLUMNS})
  SELECT ${messageValues((column) => SINGLE_PROFILE[column], "m.")}
  FROM unnest(CAST(:ids AS TEXT[]), CAST(:tos AS TEXT[]), CAST(:operators AS TEXT[]), CAST(:messageCharges AS BIGINT[]),
      CAST(:turns AS BIGINT[]), CAST(:bodies AS TEXT[]), CAST(:segments AS INTEGER[]), CAST(:encodings AS TEXT[]),
      CAST(:sendAts AS TIMESTAMP(3)[])) AS m(id, "to", operator, charge, turn, body, segments, encoding, send_at)
), ledger AS (
  INSERT INTO "LedgerEntry" (${LEDGER_COLUMNS})
  SELECT holds."id", 'hold', -l.charge, holds."balance" + l.after_final, l.id, NULL, CAST(:actor AS TEXT), CAST(:at AS TIMESTAMP(3))
  FROM holds, unnest(CAST(:ids AS TEXT[]), CAST(:messageCharges AS BIGINT[]), CAST(:afterFinal AS BIGINT[])) WITH ORDINALITY AS l(id, charge, after_final, n)
  ORDER BY l.n
`;

/**
 * The accounts of a batch of several are locked in id order before their holds: two batches that
 * share accounts never wait for each other's locks in a cycle. A batch of one account (nearly every
 * batch) leaves the step out, and its hold is a plain UPDATE of one row: both spare each of its
 * statements a step's setup (docs/decisions/0023-trusted-send-read-and-one-account-write.md).
 */
const HOLD_SEVERAL_ACCOUNTS = `), locked AS MATERIALIZED (
  SELECT "id" FROM "Account" WHERE "id" = ANY(CAST(:holdAccountIds AS TEXT[])) ORDER BY "id" FOR UPDATE
), holds AS (
  UPDATE "Account" SET "balance" = "Account"."balance" + h.total, "updatedAt" = CAST(:at AS TIMESTAMP(3))
  FROM unnest(CAST(:holdAccountIds AS TEXT[]), CAST(:holdTotals AS BIGINT[])) AS h(account_id, total)
  WHERE "Account"."id" = h.account_id AND "Account"."id" IN (SELECT "id" FROM locked) AND "Account"."balance" + h.total >= 0
  RETURNING "Account"."id", "Account"."balance"
`;
/** At most one account holds (none when the batch is all test sends). */
const HOLD_ONE_ACCOUNT = `), holds AS (
  UPDATE "Account" SET "balance" = "balance" + CAST(:holdTotal AS BIGINT), "updatedAt" = CAST(:at AS TIMESTAMP(3))
  WHERE "id" = ANY(CAST(:holdAccountIds AS TEXT[])) AND "balance" + CAST(:holdTotal AS BIGINT) >= 0
  RETURNING "id", "balance"
`;
/** singlesOfOneProfile: one account, every send one message and no bulk row; the other two, any batch. */
type WriteShape = "singlesOfOneProfile" | "oneAccount" | "severalAccounts";
const WRITE_SENDS: Record<WriteShape, string> = {
  singlesOfOneProfile: writeSendsText("singlesOfOneProfile"),
  oneAccount: writeSendsText("oneAccount"),
  severalAccounts: writeSendsText("severalAccounts"),
};

type Accepted = { send: PreparedSend; result: AcceptedSend };

/**
 * The batch priced against its accounts as read, then written by one statement. Null when the
 * statement refused the write (it wrote nothing), or when a read that did not check the keys
 * refused a send (its answer may depend on them: a revoked key is answered as such before any
 * price): the caller reads, checking the keys, and prices the batch again.
 */
async function writeSends(database: Sql, sends: PreparedSend[], price: PriceSend, checkKeys: boolean): Promise<SendOutcome[] | null> {
  const now = new Date();
  const accounts = await readSendingAccounts(database, sends, now, checkKeys);
  const claimedInBatch = new Set<string>();
  const results = sends.map((send): SendOutcome => {
    const account = accounts.get(send.accountId);
    const idempotencyKey = send.idempotency ? `${send.accountId} ${send.idempotency.key}` : null;
    if (idempotencyKey && (claimedInBatch.has(idempotencyKey) || account?.takenKeys.has(send.idempotency!.key))) {
      return new IdempotencyKeyTakenError(send.idempotency!.key);
    }
    if (idempotencyKey) claimedInBatch.add(idempotencyKey);
    if (checkKeys && send.apiKeyId && !account?.usableKeys.has(send.apiKeyId)) return unknownApiKeyError();
    return account ? price(send, account, now) : AppError.notFound("Account");
  });
  const accepted = sends.flatMap((send, index): Accepted[] => {
    const result = results[index];
    return result instanceof Error ? [] : [{ send, result }];
  });
  if (!checkKeys && accepted.length < sends.length) return null;
  if (accepted.length === 0) return results;
  try {
    const { shape, params } = writeSendsParams(accepted, now);
    await database.get(WRITE_SENDS[shape], params, { prepared: true });
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === WRITE_REFUSED) return null;
    throw error;
  }
  return results;
}

function writeSendsParams(accepted: Accepted[], now: Date) {
  const at = toDbTime(now);
  const time = (date: Date | null) => (date ? toDbTime(date) : null);
  const sendColumn = <T>(value: (entry: Accepted) => T) => accepted.map(value);
  const messages = accepted.flatMap((entry, index) => entry.result.messages.map((message) => ({ sendNumber: index + 1, message })));
  const messageColumn = <T>(value: (row: (typeof messages)[number]) => T) => messages.map(value);
  // Each live message's ledger row: the balance after it, as an offset from its account's balance after the whole batch.
  const afterFinal = messages.map(() => 0n);
  const chargedAfter = new Map<string, bigint>();
  for (let index = messages.length - 1; index >= 0; index--) {
    const { send } = accepted[messages[index].sendNumber - 1];
    if (send.test) continue;
    const after = chargedAfter.get(send.accountId) ?? 0n;
    afterFinal[index] = after;
    chargedAfter.set(send.accountId, after + messages[index].message.charge);
  }
  const holdTotals = new Map<string, bigint>();
  for (const { send, result } of accepted) {
    if (!send.test) holdTotals.set(send.accountId, (holdTotals.get(send.accountId) ?? 0n) - result.charge);
  }
  const claims = accepted.filter(({ send }) => send.idempotency);
  const claimColumn = <T>(value: (entry: Accepted, record: NonNullable<PreparedSend["idempotency"]>) => T) =>
    claims.map((entry) => value(entry, entry.send.idempotency!));
  const responses = claims.map(({ send, result }) => send.idempotency!.response(result));
  const keyIds = [...new Set(accepted.flatMap(({ send }) => send.apiKeyId ?? []))];
  const { profiles, profileNumbers } = sendProfiles(accepted);
  const common = {
    at,
    keyIds,
    keyCount: keyIds.length,
    holdAccountIds: [...holdTotals.keys()],
    holdTotals: [...holdTotals.values()].map(String),
    holdTotal: String([...holdTotals.values()][0] ?? 0n),
    holdCount: holdTotals.size,
    claimAccountIds: claimColumn(({ send }) => send.accountId),
    claimKeys: claimColumn((_, record) => record.key),
    claimHashes: claimColumn((_, record) => record.requestHash),
    claimStatuses: responses.map((response) => response.status),
    claimBodies: responses.map((response) => response.body),
    claimExpiresAts: claimColumn((_, record) => toDbTime(new Date(now.getTime() + record.keptForMs))),
    claimCount: claims.length,
    bodies: sendColumn(({ send }) => send.body),
    segments: sendColumn(({ send }) => send.segments),
    encodings: sendColumn(({ send }) => send.encoding),
    sendAts: sendColumn(({ send }) => time(send.control.sendAt)),
    ids: messageColumn(({ message }) => message.id),
    tos: messageColumn(({ message }) => message.to),
    operators: messageColumn(({ message }) => message.operator),
    messageCharges: messageColumn(({ message }) => message.charge.toString()),
    turns: messageColumn(({ message }) => message.turn),
    afterFinal: afterFinal.map(String),
  };
  // Each send its one message: the send columns above are the message rows' too.
  const singles = accepted.every(({ result }) => !result.bulkSendId && result.messages.length === 1);
  if (singles && profiles.length === 1) {
    return { shape: "singlesOfOneProfile" as const, params: Object.assign(common, profiles[0]) };
  }
  const column = <K extends keyof SendProfile>(name: K) => profiles.map((profile) => profile[name]);
  return {
    // Live sends of several accounts lock them in order first.
    shape: holdTotals.size > 1 ? ("severalAccounts" as const) : ("oneAccount" as const),
    params: Object.assign(common, {
      accountIds: column("accountId"),
      apiKeyIds: column("apiKeyId"),
      userIds: column("userId"),
      actors: column("actor"),
      currencies: column("currency"),
      tests: column("test"),
      senderIds: column("senderId"),
      webhookUrls: column("webhookUrl"),
      priorities: column("priority"),
      validityPeriods: column("validityPeriod"),
      profileNumbers,
      bulkSendIds: sendColumn(({ result }) => result.bulkSendId),
      totals: sendColumn(({ result }) => result.messages.length),
      charges: sendColumn(({ result }) => result.charge.toString()),
      sendNumbers: messageColumn(({ sendNumber }) => sendNumber),
    }),
  };
}

/** What a send shares with others of its kind, named as the statement's parameters; a batch's sends usually share one. */
type SendProfile = {
  accountId: string;
  apiKeyId: string | null;
  userId: string | null;
  actor: string;
  currency: string;
  test: boolean;
  senderId: string;
  webhookUrl: string | null;
  priority: PreparedSend["control"]["priority"];
  validityPeriod: number | null;
};

/** The batch's distinct send profiles, and each send's profile by its position. */
function sendProfiles(accepted: Accepted[]): { profiles: SendProfile[]; profileNumbers: number[] } {
  const numbers = new Map<string, number>();
  const profiles: SendProfile[] = [];
  const profileNumbers = accepted.map(({ send, result }) => {
    const profile: SendProfile = {
      accountId: send.accountId,
      apiKeyId: send.apiKeyId,
      userId: send.userId,
      actor: send.actor,
      currency: result.currency,
      test: send.test,
      senderId: send.senderName,
      webhookUrl: send.webhookUrl,
      priority: send.control.priority,
      validityPeriod: send.control.validityPeriod,
    };
    const key = profileKey(profile);
    let number = numbers.get(key);
    if (number === undefined) {
      profiles.push(profile);
      number = profiles.length;
      numbers.set(key, number);
    }
    return number;
  });
  return { profiles, profileNumbers };
}

/**
 * A string only profiles with equal fields share: each text field is length-prefixed, so no field's
 * content can run into the next. Built for every send, so it avoids JSON.stringify's cost.
 */
function profileKey(profile: SendProfile): string {
  const { accountId, apiKeyId, userId, actor, currency, test, senderId, webhookUrl, priority, validityPeriod } = profile;
  return `${keyField(accountId)}${keyField(apiKeyId)}${keyField(userId)}${keyField(actor)}${keyField(currency)}${keyField(senderId)}${keyField(webhookUrl)}${keyField(priority)}${test ? 1 : 0}${validityPeriod ?? "-"}`;
}

function keyField(value: string | null): string {
  return value === null ? "-" : `${value.length}:${value}`;
}

export function postgresKeyStore(): KeyStore {
  return {
    findUnusable: (executor, keyIds, now, options = {}) =>
      findUnusableKeys(executor, keyIds, now, options.holdUntilCommit ? HOLD_KEYS : ""),
  };
}
