import { PageHeader } from "../../ui/forms.tsx";

export default function KnowledgeArea() {
  return <PageHeader title="Knowledge" />;
}
