-- CreateTable
CREATE TABLE "ReceiptSweep" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "lastPartId" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

