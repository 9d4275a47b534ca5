-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "lowBalanceAlerted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "lowBalanceThreshold" BIGINT;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "endpointId" TEXT,
ADD COLUMN     "eventKey" TEXT,
ALTER COLUMN "messageId" DROP NOT NULL;

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "secretEnc" TEXT NOT NULL,
    "previousSecretEnc" TEXT,
    "previousSecretExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" TIMESTAMP(3),

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_accountId_idx" ON "WebhookEndpoint"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_endpointId_eventKey_key" ON "WebhookDelivery"("endpointId", "eventKey");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE SET NULL ON UPDATE CASCADE;

