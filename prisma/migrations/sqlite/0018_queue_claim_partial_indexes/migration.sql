-- DropIndex
DROP INDEX "Message_status_operator_test_turnAt_nextAttemptAt_idx";


-- Partial indexes (prisma/partial-indexes.sql)
CREATE INDEX "Message_claim_idx" ON "Message"("operator", "test", "turnAt", "nextAttemptAt") WHERE "status" = 'enqueued';

CREATE INDEX "Message_processing_idx" ON "Message"("operator", "test", "turnAt") WHERE "status" = 'processing';
