import { Route, Routes } from "react-router";
import { PageHeader } from "../../ui/forms.tsx";
import DatasourcesPage from "./DatasourcesPage.tsx";
import DatastoreFrame from "./DatastoreFrame.tsx";
import DatastoresPage from "./DatastoresPage.tsx";
import QueryPage from "./QueryPage.tsx";
import SettingsPage from "./SettingsPage.tsx";

/**
 * /knowledge: the datastores; /knowledge/:datastoreId: its datasources (uploads, web sources,
 * live status), /query (the query tester) and /settings (edit, delete).
 */
export default function KnowledgeArea() {
  return (
    <Routes>
      <Route index element={<DatastoresPage />} />
      <Route path=":datastoreId" element={<DatastoreFrame />}>
        <Route index element={<DatasourcesPage />} />
        <Route path="query" element={<QueryPage />} />
        <Route path="settings" element={<SettingsPage />} />
      </Route>
      <Route
        path="*"
        element={
          <PageHeader
            title="Page not found"
            description="There is no knowledge page at this address."
          />
        }
      />
    </Routes>
  );
}
