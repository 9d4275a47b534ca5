-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "mayBeAtCarrier" BOOLEAN NOT NULL DEFAULT false;

