-- CreateTable
CREATE TABLE "InboundNumber" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "number" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "operator" TEXT,
    "scope" TEXT NOT NULL,
    "assignedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InboundMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "encoding" TEXT NOT NULL,
    "segments" INTEGER NOT NULL,
    "complete" BOOLEAN NOT NULL DEFAULT true,
    "pduKey" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "InboundPart" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "pduKey" TEXT NOT NULL,
    "groupKey" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "partNumber" INTEGER NOT NULL,
    "total" INTEGER NOT NULL,
    "dataCoding" INTEGER NOT NULL,
    "payload" TEXT NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "messageId" TEXT
);

-- CreateIndex
CREATE INDEX "InboundNumber_accountId_idx" ON "InboundNumber"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "InboundNumber_number_scope_key" ON "InboundNumber"("number", "scope");

-- CreateIndex
CREATE UNIQUE INDEX "InboundMessage_pduKey_key" ON "InboundMessage"("pduKey");

-- CreateIndex
CREATE INDEX "InboundMessage_accountId_receivedAt_id_idx" ON "InboundMessage"("accountId", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "InboundMessage_receivedAt_id_idx" ON "InboundMessage"("receivedAt", "id");

-- CreateIndex
CREATE INDEX "InboundMessage_accountId_from_idx" ON "InboundMessage"("accountId", "from");

-- CreateIndex
CREATE UNIQUE INDEX "InboundPart_pduKey_key" ON "InboundPart"("pduKey");

-- CreateIndex
CREATE INDEX "InboundPart_groupKey_messageId_idx" ON "InboundPart"("groupKey", "messageId");

-- CreateIndex
CREATE INDEX "InboundPart_messageId_receivedAt_idx" ON "InboundPart"("messageId", "receivedAt");

-- CreateTable
CREATE TABLE "InboundSimulation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "InboundSimulation_createdAt_idx" ON "InboundSimulation"("createdAt");

