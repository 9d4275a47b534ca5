-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_SenderId" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "useCase" TEXT NOT NULL DEFAULT '',
    "rejectedReason" TEXT,
    "approvedAt" DATETIME,
    "reviewedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SenderId_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
-- nameKey is the upper-cased name; where an account already holds the same name in two cases, the
-- approved (else the oldest) keeps the plain key and the others get their id appended, so the
-- unique index holds and no row is lost.
INSERT INTO "new_SenderId" ("accountId", "approvedAt", "createdAt", "id", "name", "status", "nameKey")
SELECT s."accountId", s."approvedAt", s."createdAt", s."id", s."name", s."status",
       UPPER(s."name") || CASE WHEN EXISTS (
         SELECT 1 FROM "SenderId" o
          WHERE o."accountId" = s."accountId" AND UPPER(o."name") = UPPER(s."name") AND o."id" <> s."id"
            AND ((o."status" = 'approved' AND s."status" <> 'approved')
            OR ((o."status" = 'approved') = (s."status" = 'approved')
                AND (o."createdAt" < s."createdAt" OR (o."createdAt" = s."createdAt" AND o."id" < s."id"))))
       ) THEN ':' || s."id" ELSE '' END
  FROM "SenderId" s;
DROP TABLE "SenderId";
ALTER TABLE "new_SenderId" RENAME TO "SenderId";
CREATE UNIQUE INDEX "SenderId_accountId_name_key" ON "SenderId"("accountId", "name");
CREATE UNIQUE INDEX "SenderId_accountId_nameKey_key" ON "SenderId"("accountId", "nameKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

