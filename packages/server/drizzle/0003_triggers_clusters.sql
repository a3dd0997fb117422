CREATE TABLE "clusters" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"tunnel_config" text,
	"public_registry_prefix" text,
	"limited_agent_permission" boolean DEFAULT false NOT NULL,
	"allowed_namespaces" jsonb DEFAULT '["ozone"]'::jsonb NOT NULL,
	"selected_namespaces" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'attaching' NOT NULL,
	"status_message" text,
	"token_hash" text,
	"token_prefix" text,
	"token_revoked_at" timestamp with time zone,
	"agent_version" text,
	"kubernetes_version" text,
	"node_count" integer,
	"total_vcpu" double precision,
	"namespaces" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"installed_resources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"storage_options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_heartbeat_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"environment_id" text NOT NULL,
	"name" text NOT NULL,
	"namespace" text NOT NULL,
	"resources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"image" text,
	"health" text DEFAULT 'unknown' NOT NULL,
	"health_message" text,
	"run_id" text,
	"deployed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"health_checked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "environments" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"cluster_id" text,
	"namespace" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"pipeline_id" text NOT NULL,
	"name" text NOT NULL,
	"frequency" text NOT NULL,
	"minute" integer,
	"time" text,
	"day_of_week" integer,
	"cron" text,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"timeout_hours" double precision DEFAULT 1 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_run_id" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"webhook_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivery_id" text,
	"event" text,
	"outcome" text NOT NULL,
	"status_code" integer NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"params" jsonb,
	"run_id" text,
	"payload_bytes" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"pipeline_id" text NOT NULL,
	"type" text NOT NULL,
	"event" text NOT NULL,
	"branch" text DEFAULT '*' NOT NULL,
	"secret_encrypted" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_delivery_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "pipeline_runs" ADD COLUMN "environment_id" text;--> statement-breakpoint
ALTER TABLE "clusters" ADD CONSTRAINT "clusters_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "environments" ADD CONSTRAINT "environments_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_ws_name" ON "clusters" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_token_hash" ON "clusters" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "deployments_env_name" ON "deployments" USING btree ("environment_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "environments_ws_name" ON "environments" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "schedules_ws_name" ON "schedules" USING btree ("workspace_id","name");--> statement-breakpoint
CREATE INDEX "schedules_due" ON "schedules" USING btree ("enabled","next_run_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_hook" ON "webhook_deliveries" USING btree ("webhook_id","received_at");--> statement-breakpoint
CREATE INDEX "webhooks_ws" ON "webhooks" USING btree ("workspace_id","created_at");