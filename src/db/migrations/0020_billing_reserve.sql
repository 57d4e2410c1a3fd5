-- Holds credits for a metered action before it runs, under the organization's billing lock (the
-- same row lock as billing_debit), so concurrent actions of one organization are admitted one
-- after another against what the others already hold.
--
-- Inserts the reservation and returns what the caller needs to decide whether the action may run
-- (evaluateAccess in src/domain/billing/billing-access.ts stays the only decision; a refused
-- caller deletes its reservation): the organization's billing settings, its bucket totals, and
-- what the other live reservations hold. Returns no row when the organization does not exist.
--
-- The amount held is the estimate, capped at what is neither spent nor held by others, when
-- buckets fund the organization (isFundedByBuckets, as in billing_debit); 0 otherwise. A capped
-- hold is the spec's last message that may run on a fraction of a credit. Expired reservations
-- (left by a process that died) are deleted here.
--
-- The statement's commit does not wait for its WAL to reach disk (synchronous_commit off for this
-- transaction only): other sessions see the reservation at once all the same. A database crash
-- can lose the reservations of the last moments, which only leaves the actions then running
-- unheld (their charges still apply, deleting nothing). A reservation is written on every agent
-- query, so this saves one disk flush per query.
CREATE FUNCTION billing_reserve(reservation text, organization text, estimate_micro bigint,
  counts_as_message boolean, reserved_at timestamptz, expires timestamptz)
RETURNS TABLE (model text, status text, monthly_limit integer, buckets integer,
  granted bigint, remaining bigint, held bigint, held_messages integer, reserved bigint)
LANGUAGE plpgsql VOLATILE AS $$
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
  INSERT INTO credit_reservations (id, organization_id, amount_micro, agent_message, expires_at)
  VALUES (reservation, organization, reserved, counts_as_message, expires);
  RETURN NEXT;
END $$;
