-- AlterTable
ALTER TABLE "CarrierLink" ADD COLUMN     "active" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "bind" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'primary';

-- CreateIndex
CREATE INDEX "Message_status_operator_test_deliveredAt_dispatchedAt_idx" ON "Message"("status", "operator", "test", "deliveredAt", "dispatchedAt");

