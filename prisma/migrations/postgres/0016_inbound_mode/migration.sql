-- DropIndex
DROP INDEX "InboundMessage_accountId_receivedAt_id_idx";

-- AlterTable
ALTER TABLE "InboundMessage" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'live';

-- AlterTable
ALTER TABLE "InboundPart" ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'live';

-- CreateIndex
CREATE INDEX "InboundMessage_accountId_mode_receivedAt_id_idx" ON "InboundMessage"("accountId", "mode", "receivedAt", "id");

