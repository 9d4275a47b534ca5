-- CreateTable
CREATE TABLE "TopUpRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL DEFAULT 'pending',
    "requestedBy" TEXT NOT NULL,
    "decidedBy" TEXT,
    "decidedAt" DATETIME,
    "declineReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "TopUpRequest_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "TopUpRequest_accountId_createdAt_idx" ON "TopUpRequest"("accountId", "createdAt");

-- CreateIndex
CREATE INDEX "TopUpRequest_state_createdAt_idx" ON "TopUpRequest"("state", "createdAt");

-- CreateIndex
CREATE INDEX "SenderId_nameKey_idx" ON "SenderId"("nameKey");

