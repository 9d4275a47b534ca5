-- DropIndex
DROP INDEX "Message_status_operator_test_nextAttemptAt_idx";

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "priority" TEXT NOT NULL DEFAULT 'normal',
ADD COLUMN     "sendAt" TIMESTAMP(3),
ADD COLUMN     "turnAt" TIMESTAMP(3),
ADD COLUMN     "validityPeriod" INTEGER;

-- Messages still queued keep their order.
UPDATE "Message" SET "turnAt" = "nextAttemptAt" WHERE "status" IN ('created', 'enqueued', 'processing');

-- CreateIndex
CREATE INDEX "Message_status_operator_test_turnAt_nextAttemptAt_idx" ON "Message"("status", "operator", "test", "turnAt", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Message_status_nextAttemptAt_idx" ON "Message"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Message_status_expiresAt_idx" ON "Message"("status", "expiresAt");

