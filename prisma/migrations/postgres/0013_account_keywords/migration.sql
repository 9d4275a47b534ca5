-- CreateTable
CREATE TABLE "OptOutSettings" (
    "accountId" TEXT NOT NULL,
    "stopKeywords" TEXT NOT NULL DEFAULT '',
    "startKeywords" TEXT NOT NULL DEFAULT '',
    "confirm" BOOLEAN NOT NULL DEFAULT false,
    "stopReply" TEXT NOT NULL,
    "startReply" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OptOutSettings_pkey" PRIMARY KEY ("accountId")
);

-- AddForeignKey
ALTER TABLE "OptOutSettings" ADD CONSTRAINT "OptOutSettings_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

