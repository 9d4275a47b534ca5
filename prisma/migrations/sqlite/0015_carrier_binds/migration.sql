-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_CarrierLink" (
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
    "updatedAt" DATETIME NOT NULL,
    "bind" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL DEFAULT 'primary',
    "active" BOOLEAN NOT NULL DEFAULT true
);
INSERT INTO "new_CarrierLink" ("host", "id", "minutes", "nextTryAt", "operator", "owner", "sentLastMinute", "since", "state", "tps", "updatedAt", "windowSize", "windowUsed") SELECT "host", "id", "minutes", "nextTryAt", "operator", "owner", "sentLastMinute", "since", "state", "tps", "updatedAt", "windowSize", "windowUsed" FROM "CarrierLink";
DROP TABLE "CarrierLink";
ALTER TABLE "new_CarrierLink" RENAME TO "CarrierLink";
CREATE INDEX "CarrierLink_operator_idx" ON "CarrierLink"("operator");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
