import { PageHeader } from "../../ui/forms.tsx";

export default function AgentsArea() {
  return <PageHeader title="Agents" />;
}
