-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "timeZone" TEXT NOT NULL DEFAULT 'Africa/Harare';

