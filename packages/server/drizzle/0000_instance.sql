CREATE TABLE "instance" (
	"id" text PRIMARY KEY NOT NULL,
	"first_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"starts" integer DEFAULT 1 NOT NULL
);
