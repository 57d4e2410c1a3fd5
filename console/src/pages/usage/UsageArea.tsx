import { PageHeader } from "../../ui/forms.tsx";

export default function UsageArea() {
  return <PageHeader title="Usage" />;
}
