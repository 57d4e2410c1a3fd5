-- Debits a charge from an organization's credits under its billing lock, in one call, so a charge
-- is one statement (and one round trip) instead of a transaction of five. Returns the micro-credits
-- charged, or NULL when the organization does not exist.
--
-- The lock (the organization's row, FOR NO KEY UPDATE) makes the charges of one organization run
-- one after another until their transactions end. Each statement of a PL/pgSQL function takes a
-- new snapshot, so the balance read after the lock includes what the previous holder committed.
--
-- A charge is funded by buckets when the organization uses the credits model and was ever granted
-- a bucket (isFundedByBuckets in src/domain/billing/billing-access.ts): then it takes what remains,
-- oldest-expiring bucket first, never more. Otherwise the whole amount is recorded as charged.
CREATE FUNCTION billing_debit(organization text, amount_micro bigint, charged_at timestamptz)
RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  model text;
  bucket_count integer;
  remaining bigint;
  taken bigint;
BEGIN
  SELECT billing_model INTO model FROM organizations WHERE id = organization FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  SELECT count(*),
    coalesce(sum(remaining_micro) FILTER (WHERE expires_at IS NULL OR expires_at > charged_at), 0)
  INTO bucket_count, remaining
  FROM credit_buckets WHERE organization_id = organization;
  IF model <> 'credits' OR bucket_count = 0 THEN
    RETURN amount_micro;
  END IF;
  IF remaining <= 0 OR amount_micro <= 0 THEN
    RETURN 0;
  END IF;
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
  RETURN taken;
END $$;
