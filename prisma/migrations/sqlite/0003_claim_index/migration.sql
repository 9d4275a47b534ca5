-- DropIndex
DROP INDEX "Message_status_nextAttemptAt_idx";

-- CreateIndex
CREATE INDEX "Message_status_operator_test_nextAttemptAt_idx" ON "Message"("status", "operator", "test", "nextAttemptAt");

