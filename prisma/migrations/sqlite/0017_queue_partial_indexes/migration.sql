-- DropIndex
DROP INDEX "Message_status_nextAttemptAt_idx";

-- DropIndex
DROP INDEX "Message_status_expiresAt_idx";


-- Partial indexes (prisma/partial-indexes.sql)
CREATE INDEX "Message_scheduled_idx" ON "Message"("status", "nextAttemptAt") WHERE "status" = 'created';

CREATE INDEX "Message_queued_expiry_idx" ON "Message"("status", "expiresAt") WHERE "status" IN ('created', 'enqueued') AND "expiresAt" IS NOT NULL;
