-- CreateIndex
CREATE INDEX "Account_name_id_idx" ON "Account"("name", "id");

