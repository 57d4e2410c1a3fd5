/** The service's rule for passwords (DESIGN.md §10), said before it refuses one. */
export const PASSWORD_HINT = "At least 10 characters.";
