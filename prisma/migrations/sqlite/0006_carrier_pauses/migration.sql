-- CreateTable
CREATE TABLE "CarrierPause" (
    "operator" TEXT NOT NULL PRIMARY KEY,
    "reason" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "pausedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "CarrierLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "owner" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" DATETIME NOT NULL,
    "nextTryAt" DATETIME,
    "host" TEXT NOT NULL,
    "windowUsed" INTEGER NOT NULL,
    "windowSize" INTEGER NOT NULL,
    "tps" INTEGER NOT NULL,
    "sentLastMinute" INTEGER NOT NULL,
    "minutes" TEXT NOT NULL DEFAULT '[]',
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "CarrierLink_operator_idx" ON "CarrierLink"("operator");

