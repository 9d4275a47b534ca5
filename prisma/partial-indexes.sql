-- Indexes prisma/schema.prisma cannot describe (partial indexes), the same on SQLite and PostgreSQL.
-- A migration creates or changes them by hand. The drift check
-- (tests/integration/migrations.test.ts) applies this file to the database it builds from the
-- schema, so the migrations must produce exactly these.
--
-- Only the messages they are for have an entry: a message leaves the claim index when it is claimed
-- and the processing index when its carrier answers, and a message that is neither scheduled nor
-- given a validity period never enters the other two (docs/decisions/0020-partial-queue-indexes.md). A
-- query reaches one only when its WHERE names the index's condition as written here.

-- The dispatcher's claim: queued messages of one carrier and traffic kind in turn order, read in
-- index order (no sort, no other carrier's rows; the due check reads the index)
-- (lib/db/stores/shared/claims.ts).
CREATE INDEX "Message_claim_idx" ON "Message"("operator", "test", "turn", "nextAttemptAt") WHERE "status" = 'enqueued';

-- Messages out with a carrier: the lease sweep and release (lib/delivery/claim-messages.ts), and the
-- turn being served (lib/db/stores/shared/claims.ts).
CREATE INDEX "Message_processing_idx" ON "Message"("operator", "test", "turn") WHERE "status" = 'processing';

-- Scheduled sends coming due (lib/delivery/fail-queued-messages.ts).
CREATE INDEX "Message_scheduled_idx" ON "Message"("status", "nextAttemptAt") WHERE "status" = 'created';

-- Queued messages whose validity passes (lib/delivery/fail-queued-messages.ts).
CREATE INDEX "Message_queued_expiry_idx" ON "Message"("status", "expiresAt") WHERE "status" IN ('created', 'enqueued') AND "expiresAt" IS NOT NULL;
