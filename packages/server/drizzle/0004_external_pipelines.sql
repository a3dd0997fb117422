ALTER TABLE "pipelines" ADD COLUMN "source" jsonb;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "last_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "sync_error" text;--> statement-breakpoint
ALTER TABLE "schedules" ADD COLUMN "last_error" text;