import type { ReactNode } from "react";
import { NavLink } from "react-router";
import type { Role } from "../../app/session.tsx";
import { PageHeader } from "../../ui/forms.tsx";

const PAGES = [
  { to: "/settings/organization", label: "Organization" },
  { to: "/settings/members", label: "Members" },
  { to: "/settings/api-keys", label: "API keys" },
  { to: "/settings/event-subscriptions", label: "Event subscriptions" },
  { to: "/settings/audit-log", label: "Audit log" },
] as const;

/** A settings page: its header, the links to the other settings pages, its content. */
export function SettingsPage({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <nav aria-label="Settings" className="settings-nav">
        <ul className="tabs-list">
          {PAGES.map((page) => (
            <li key={page.to}>
              <NavLink to={page.to}>{page.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </>
  );
}

/** Why a part of a page is not shown: the role it takes and the reader's own. */
export function OwnersAndAdminsOnly({ role, what }: { role: Role; what: string }) {
  return (
    <div className="state state-empty settings-role-notice">
      <p className="state-title">Only owners and admins {what}</p>
      <p>
        Your role in this organization is <strong>{role}</strong>. Ask an owner or admin if you need
        this changed.
      </p>
    </div>
  );
}
