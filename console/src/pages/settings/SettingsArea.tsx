import { Navigate, Route, Routes } from "react-router";
import ApiKeysPage from "./ApiKeysPage.tsx";
import AuditLogPage from "./AuditLogPage.tsx";
import EventSubscriptionsPage from "./EventSubscriptionsPage.tsx";
import MembersPage from "./MembersPage.tsx";
import OrganizationPage from "./OrganizationPage.tsx";
import { SettingsPage } from "./SettingsPage.tsx";

function NotFound() {
  return (
    <SettingsPage
      title="Settings page not found"
      description="There is no settings page at this address. Choose one below."
    >
      {null}
    </SettingsPage>
  );
}

/** /console/settings/*: the organization, its people, keys, event subscriptions, audit log. */
export default function SettingsArea() {
  return (
    <Routes>
      <Route index element={<Navigate to="organization" replace />} />
      <Route path="organization" element={<OrganizationPage />} />
      <Route path="members" element={<MembersPage />} />
      <Route path="api-keys" element={<ApiKeysPage />} />
      <Route path="event-subscriptions" element={<EventSubscriptionsPage />} />
      <Route path="audit-log" element={<AuditLogPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
