ALTER TABLE "log_chunks" ALTER COLUMN "lines" SET DATA TYPE json USING "lines"::json;
