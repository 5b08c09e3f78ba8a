CREATE TABLE "requisites" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"company_name" text,
	"company_inn" text,
	"company_kpp" text,
	"contact_name" text,
	"contact_phone" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "requisites" ADD CONSTRAINT "requisites_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;