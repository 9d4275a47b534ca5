-- AlterTable
ALTER TABLE "SenderId" ADD COLUMN     "nameKey" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "rejectedReason" TEXT,
ADD COLUMN     "reviewedAt" TIMESTAMP(3),
ADD COLUMN     "useCase" TEXT NOT NULL DEFAULT '';

-- nameKey is the upper-cased name; where an account already holds the same name in two cases, the
-- approved (else the oldest) keeps the plain key and the others get their id appended, so the
-- unique index holds and no row is lost.
UPDATE "SenderId" s SET "nameKey" = UPPER(s."name") || CASE WHEN EXISTS (
  SELECT 1 FROM "SenderId" o
   WHERE o."accountId" = s."accountId" AND UPPER(o."name") = UPPER(s."name") AND o."id" <> s."id"
     AND ((o."status" = 'approved' AND s."status" <> 'approved')
            OR ((o."status" = 'approved') = (s."status" = 'approved')
                AND (o."createdAt" < s."createdAt" OR (o."createdAt" = s."createdAt" AND o."id" < s."id"))))
) THEN ':' || s."id" ELSE '' END;

-- CreateIndex
CREATE UNIQUE INDEX "SenderId_accountId_nameKey_key" ON "SenderId"("accountId", "nameKey");

