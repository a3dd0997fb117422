CREATE TABLE "registry_blobs" (
	"repository_id" text NOT NULL,
	"digest" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registry_blobs_repository_id_digest_pk" PRIMARY KEY("repository_id","digest")
);
--> statement-breakpoint
CREATE TABLE "registry_manifests" (
	"repository_id" text NOT NULL,
	"digest" text NOT NULL,
	"media_type" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registry_manifests_repository_id_digest_pk" PRIMARY KEY("repository_id","digest")
);
--> statement-breakpoint
CREATE TABLE "registry_repositories" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "registry_tags" (
	"repository_id" text NOT NULL,
	"tag" text NOT NULL,
	"digest" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "registry_tags_repository_id_tag_pk" PRIMARY KEY("repository_id","tag")
);
--> statement-breakpoint
CREATE TABLE "registry_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"repository_id" text NOT NULL,
	"size" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "registry_blobs" ADD CONSTRAINT "registry_blobs_repository_id_registry_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."registry_repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry_manifests" ADD CONSTRAINT "registry_manifests_repository_id_registry_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."registry_repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry_repositories" ADD CONSTRAINT "registry_repositories_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry_tags" ADD CONSTRAINT "registry_tags_repository_id_registry_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."registry_repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry_uploads" ADD CONSTRAINT "registry_uploads_repository_id_registry_repositories_id_fk" FOREIGN KEY ("repository_id") REFERENCES "public"."registry_repositories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "registry_repositories_ws_name" ON "registry_repositories" USING btree ("workspace_id","name");