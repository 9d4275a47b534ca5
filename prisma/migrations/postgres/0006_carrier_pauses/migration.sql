-- CreateTable
CREATE TABLE "CarrierPause" (
    "operator" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "pausedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CarrierPause_pkey" PRIMARY KEY ("operator")
);

-- CreateTable
CREATE TABLE "CarrierLink" (
    "id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,
    "nextTryAt" TIMESTAMP(3),
    "host" TEXT NOT NULL,
    "windowUsed" INTEGER NOT NULL,
    "windowSize" INTEGER NOT NULL,
    "tps" INTEGER NOT NULL,
    "sentLastMinute" INTEGER NOT NULL,
    "minutes" TEXT NOT NULL DEFAULT '[]',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CarrierLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CarrierLink_operator_idx" ON "CarrierLink"("operator");

