import { Route, Routes } from "react-router";
import { PageHeader } from "../../ui/forms.tsx";
import { AnnotationsPage } from "./AnnotationsPage.tsx";

/** /console/annotations: the review queue of the ratings of AI answers. */
export default function AnnotationsArea() {
  return (
    <Routes>
      <Route index element={<AnnotationsPage />} />
      <Route
        path="*"
        element={
          <PageHeader
            title="Page not found"
            description="There is no annotations page at this address."
          />
        }
      />
    </Routes>
  );
}
