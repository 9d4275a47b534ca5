-- CreateTable
CREATE TABLE "OptOut" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OptOut_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OptOut_accountId_createdAt_id_idx" ON "OptOut"("accountId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "OptOut_accountId_number_key" ON "OptOut"("accountId", "number");

-- AddForeignKey
ALTER TABLE "OptOut" ADD CONSTRAINT "OptOut_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

