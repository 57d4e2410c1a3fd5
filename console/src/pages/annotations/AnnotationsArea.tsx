import { PageHeader } from "../../ui/forms.tsx";

export default function AnnotationsArea() {
  return <PageHeader title="Annotations" />;
}
