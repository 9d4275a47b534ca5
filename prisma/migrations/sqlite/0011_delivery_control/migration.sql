-- Priority, scheduled sends, validity and the queue's turn order (added columns: no table copy).
-- DropIndex
DROP INDEX "Message_status_operator_test_nextAttemptAt_idx";

-- AlterTable
ALTER TABLE "Message" ADD COLUMN "priority" TEXT NOT NULL DEFAULT 'normal';
ALTER TABLE "Message" ADD COLUMN "sendAt" DATETIME;
ALTER TABLE "Message" ADD COLUMN "validityPeriod" INTEGER;
ALTER TABLE "Message" ADD COLUMN "expiresAt" DATETIME;
ALTER TABLE "Message" ADD COLUMN "turnAt" DATETIME;

-- Messages still queued keep their order.
UPDATE "Message" SET "turnAt" = "nextAttemptAt" WHERE "status" IN ('created', 'enqueued', 'processing');

-- CreateIndex
CREATE INDEX "Message_status_operator_test_turnAt_nextAttemptAt_idx" ON "Message"("status", "operator", "test", "turnAt", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Message_status_nextAttemptAt_idx" ON "Message"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Message_status_expiresAt_idx" ON "Message"("status", "expiresAt");
