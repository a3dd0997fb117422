CREATE TABLE "config_maps" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"data" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_delivery_ids" (
	"webhook_id" text NOT NULL,
	"delivery_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_delivery_ids_webhook_id_delivery_id_pk" PRIMARY KEY("webhook_id","delivery_id")
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "max_run_minutes" integer;--> statement-breakpoint
ALTER TABLE "config_maps" ADD CONSTRAINT "config_maps_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_delivery_ids" ADD CONSTRAINT "webhook_delivery_ids_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "config_maps_ws_name" ON "config_maps" USING btree ("workspace_id","name");