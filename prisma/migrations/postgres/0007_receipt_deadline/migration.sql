-- CreateTable
CREATE TABLE "ReceiptSweep" (
    "id" INTEGER NOT NULL,
    "lastPartId" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReceiptSweep_pkey" PRIMARY KEY ("id")
);

