-- A message's turn in epoch milliseconds (an integer) instead of a timestamp, as on SQLite.
-- The queue's partial indexes (prisma/partial-indexes.sql) are dropped and made again on the new column.
DROP INDEX "Message_claim_idx";
DROP INDEX "Message_processing_idx";

-- AlterTable
ALTER TABLE "Message" ADD COLUMN "turn" BIGINT;

UPDATE "Message" SET "turn" = CAST(ROUND(EXTRACT(EPOCH FROM "turnAt") * 1000) AS BIGINT) WHERE "turnAt" IS NOT NULL;

ALTER TABLE "Message" DROP COLUMN "turnAt";

-- Partial indexes (prisma/partial-indexes.sql)
CREATE INDEX "Message_claim_idx" ON "Message"("operator", "test", "turn", "nextAttemptAt") WHERE "status" = 'enqueued';

CREATE INDEX "Message_processing_idx" ON "Message"("operator", "test", "turn") WHERE "status" = 'processing';
