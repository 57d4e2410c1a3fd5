import type {} from "@fastify/cookie";
import type { FastifyReply } from "fastify";

/** The cookie of a signed-in browser (DESIGN.md §10). */
export const SESSION_COOKIE = "agentdesk_session";

export type CookieSettings = { secure: boolean };

/** The configuration the session cookie follows (ACCOUNTS: Secure when PUBLIC_URL is https). */
export type SessionCookieSettings = { secureCookies: boolean };

export const cookieSettingsOf = (settings: SessionCookieSettings): CookieSettings => ({
  secure: settings.secureCookies,
});

/** Sets the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_URL is https. */
export function setSessionCookie(
  reply: FastifyReply,
  settings: CookieSettings,
  session: { token: string; expiresAt: Date },
): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: settings.secure,
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, settings: CookieSettings): void {
  reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: settings.secure,
  });
}
