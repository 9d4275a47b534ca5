-- DropIndex
DROP INDEX "Message_accountId_to_idx";

