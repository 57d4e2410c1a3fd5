-- The monthly credit budget of an API key (DESIGN.md §10), kept by the two billing functions
-- under the organization's billing lock, like its credits: a key belongs to one organization, so
-- the actions of one key are admitted and charged one after another too.
--
-- billing_reserve also holds, from the budget of the key the action runs with (`api_key`, NULL
-- for sessions and everything else), the estimate capped at what the key has neither spent this
-- calendar month (UTC) nor held for its other running actions, and returns the key's budget and
-- what was left of it before this hold (both NULL for a key without a budget). The caller refuses
-- with 402 when nothing was left, as it does for credits. The new parameter has a default, so the
-- call without it is unchanged; the old signature is dropped so that call is not ambiguous, and
-- the settings of migrations 0026 and 0027 are set again on the new one.
DROP FUNCTION billing_reserve(text, text, bigint, boolean, timestamptz, timestamptz);
--> statement-breakpoint
CREATE FUNCTION billing_reserve(reservation text, organization text, estimate_micro bigint,
  counts_as_message boolean, reserved_at timestamptz, expires timestamptz,
  api_key text DEFAULT NULL)
RETURNS TABLE (model text, status text, monthly_limit integer, buckets integer,
  granted bigint, remaining bigint, held bigint, held_messages integer, reserved bigint,
  key_budget bigint, key_left bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  key_hold bigint := 0;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  SELECT o.billing_model, o.subscription_status, o.query_limit INTO model, status, monthly_limit
  FROM organizations o WHERE o.id = organization FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  DELETE FROM credit_reservations r
  WHERE r.organization_id = organization AND r.expires_at <= reserved_at;
  SELECT count(*)::int,
    coalesce(sum(b.granted_micro) FILTER (WHERE b.expires_at IS NULL OR b.expires_at > reserved_at), 0),
    coalesce(sum(b.remaining_micro) FILTER (WHERE b.expires_at IS NULL OR b.expires_at > reserved_at), 0)
  INTO buckets, granted, remaining
  FROM credit_buckets b WHERE b.organization_id = organization;
  SELECT coalesce(sum(r.amount_micro), 0), (count(*) FILTER (WHERE r.agent_message))::int
  INTO held, held_messages
  FROM credit_reservations r WHERE r.organization_id = organization;
  reserved := CASE
    WHEN model = 'credits' AND buckets > 0 THEN greatest(least(estimate_micro, remaining - held), 0)
    ELSE 0
  END;
  IF api_key IS NOT NULL THEN
    SELECT k.monthly_budget_micro INTO key_budget FROM api_keys k WHERE k.id = api_key;
  END IF;
  IF key_budget IS NOT NULL THEN
    key_left := key_budget
      - coalesce((SELECT s.spent_micro FROM api_key_spending s
          WHERE s.api_key_id = api_key AND s.month = date_trunc('month', reserved_at, 'UTC')), 0)
      - coalesce((SELECT sum(r.budget_micro) FROM credit_reservations r
          WHERE r.api_key_id = api_key), 0);
    key_hold := greatest(least(estimate_micro, key_left), 0);
  END IF;
  INSERT INTO credit_reservations (id, organization_id, amount_micro, agent_message, expires_at,
    api_key_id, budget_micro)
  VALUES (reservation, organization, reserved, counts_as_message, expires,
    CASE WHEN key_budget IS NULL THEN NULL ELSE api_key END, key_hold);
  RETURN NEXT;
END $$;
--> statement-breakpoint
ALTER FUNCTION billing_reserve(text, text, bigint, boolean, timestamptz, timestamptz, text) ROWS 1;
--> statement-breakpoint
ALTER FUNCTION billing_reserve(text, text, bigint, boolean, timestamptz, timestamptz, text)
  SET enable_bitmapscan = off;
--> statement-breakpoint
-- billing_debit also caps a charge made with a key that has a budget at what the key has not
-- spent this calendar month (UTC), so its charges never add up to more than the budget, even
-- when an action costs more than it held; what it charged is added to the key's month.
DROP FUNCTION billing_debit(text, bigint, timestamptz);
--> statement-breakpoint
CREATE FUNCTION billing_debit(organization text, amount_micro bigint, charged_at timestamptz,
  api_key text DEFAULT NULL)
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  model text;
  bucket_count integer;
  remaining bigint;
  taken bigint;
  budget bigint;
  charge_month timestamptz := date_trunc('month', charged_at, 'UTC');
BEGIN
  SELECT billing_model INTO model FROM organizations WHERE id = organization FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF api_key IS NOT NULL THEN
    SELECT k.monthly_budget_micro INTO budget FROM api_keys k WHERE k.id = api_key;
  END IF;
  IF budget IS NOT NULL THEN
    amount_micro := greatest(least(amount_micro, budget - coalesce((SELECT s.spent_micro
      FROM api_key_spending s WHERE s.api_key_id = api_key AND s.month = charge_month), 0)), 0);
  END IF;
  SELECT count(*),
    coalesce(sum(remaining_micro) FILTER (WHERE expires_at IS NULL OR expires_at > charged_at), 0)
  INTO bucket_count, remaining
  FROM credit_buckets WHERE organization_id = organization;
  IF model <> 'credits' OR bucket_count = 0 THEN
    taken := amount_micro;
  ELSIF remaining <= 0 OR amount_micro <= 0 THEN
    taken := 0;
  ELSE
    WITH ordered AS (
      SELECT id, remaining_micro,
        sum(remaining_micro) OVER (
          ORDER BY expires_at ASC NULLS LAST, created_at, id
          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) - remaining_micro AS before
      FROM credit_buckets
      WHERE organization_id = organization
        AND remaining_micro > 0
        AND (expires_at IS NULL OR expires_at > charged_at)
    ), shares AS (
      SELECT id, least(remaining_micro, amount_micro - before) AS take
      FROM ordered
      WHERE before < amount_micro
    ), debited AS (
      UPDATE credit_buckets AS bucket
      SET remaining_micro = bucket.remaining_micro - shares.take
      FROM shares
      WHERE bucket.id = shares.id
      RETURNING shares.take
    )
    SELECT coalesce(sum(take), 0) INTO taken FROM debited;
  END IF;
  IF budget IS NOT NULL THEN
    INSERT INTO api_key_spending AS s (api_key_id, month, spent_micro)
    VALUES (api_key, charge_month, taken)
    ON CONFLICT (api_key_id, month) DO UPDATE SET spent_micro = s.spent_micro + excluded.spent_micro;
  END IF;
  RETURN taken;
END $$;
