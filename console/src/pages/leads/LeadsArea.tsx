import { PageHeader } from "../../ui/forms.tsx";

export default function LeadsArea() {
  return <PageHeader title="Leads" />;
}
