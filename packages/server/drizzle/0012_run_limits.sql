ALTER TABLE "workspaces" ADD COLUMN "max_runs_in_progress" integer;--> statement-breakpoint
ALTER TABLE "pipelines" ADD COLUMN "max_runs_in_progress" integer;