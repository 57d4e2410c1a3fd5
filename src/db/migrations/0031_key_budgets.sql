CREATE TABLE "api_key_spending" (
	"api_key_id" text NOT NULL,
	"month" timestamp with time zone NOT NULL,
	"spent_micro" bigint NOT NULL,
	CONSTRAINT "api_key_spending_pk" PRIMARY KEY("api_key_id","month")
);
--> statement-breakpoint
ALTER TABLE "consumption_events" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "credit_reservations" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "credit_reservations" ADD COLUMN "budget_micro" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_key_spending" ADD CONSTRAINT "api_key_spending_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_reservations_api_key_idx" ON "credit_reservations" USING btree ("api_key_id") WHERE "credit_reservations"."api_key_id" is not null;