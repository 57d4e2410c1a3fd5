const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const day = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** An ISO 8601 timestamp of the API in the reader's time zone, or a dash. */
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dateTime.format(new Date(iso)) : "—";

export const formatDay = (iso: string | null | undefined) =>
  iso ? day.format(new Date(iso)) : "—";

export const formatInteger = (value: number) => integer.format(value);

/** Credits as the API counts them (fractions of a credit kept to two decimals). */
export const formatCredits = (value: number) => decimal.format(value);
