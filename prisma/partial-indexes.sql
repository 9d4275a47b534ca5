-- Indexes prisma/schema.prisma cannot describe (partial indexes), the same on SQLite and PostgreSQL.
-- A migration creates or changes them by hand. The drift check
-- (tests/integration/migrations.test.ts) applies this file to the database it builds from the
-- schema, so the migrations must produce exactly these.
--
-- Only the few messages they are for have an entry, so a send, claim or carrier acceptance of
-- any other message writes nothing to them (docs/decisions/0020-partial-queue-indexes.md). A
-- query reaches one only when its WHERE names the index's condition as written here.

-- Scheduled sends coming due (lib/delivery/fail-queued-messages.ts).
CREATE INDEX "Message_scheduled_idx" ON "Message"("status", "nextAttemptAt") WHERE "status" = 'created';

-- Queued messages whose validity passes (lib/delivery/fail-queued-messages.ts).
CREATE INDEX "Message_queued_expiry_idx" ON "Message"("status", "expiresAt") WHERE "status" IN ('created', 'enqueued') AND "expiresAt" IS NOT NULL;
