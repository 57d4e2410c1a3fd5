import type { ApiData } from "../../api/client.ts";
import { formatDateTime } from "../../ui/format.ts";
import { TableRegion } from "../../ui/table-region.tsx";

type Lead = ApiData<"/api/admin/leads", "get">["data"][number];

/** The fields a lead may carry beyond the table's columns, in the form's order. */
const MORE_FIELDS: ReadonlyArray<[keyof Lead, string]> = [
  ["phone", "Phone"],
  ["industry", "Industry"],
  ["companySize", "Company size"],
  ["area", "Area"],
  ["hoursPerWeek", "Hours per week"],
  ["aiToday", "AI today"],
  ["levelLabel", "Level"],
  ["recommendedAgent", "Recommended agent"],
  ["postSlug", "Blog post"],
  ["userAgent", "Browser"],
  ["ipHash", "IP hash"],
];

function LeadDetails({ lead }: { lead: Lead }) {
  const sent = MORE_FIELDS.filter(([field]) => lead[field] !== null && lead[field] !== "");
  return (
    <details className="lead-details">
      <summary>
        Details<span className="visually-hidden"> of {lead.name}</span>
      </summary>
      {sent.length === 0 ? (
        <p className="muted">Nothing else was sent.</p>
      ) : (
        <dl>
          {sent.map(([field, label]) => (
            <div key={field}>
              <dt>{label}</dt>
              <dd>{String(lead[field])}</dd>
            </div>
          ))}
        </dl>
      )}
    </details>
  );
}

/** A page of leads: who, when, from which form, and every other field they sent on demand. */
export function LeadTable({ leads }: { leads: Lead[] }) {
  return (
    <TableRegion label="Leads">
      <table>
        <caption className="visually-hidden">Leads, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Received</th>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Company</th>
            <th scope="col">Source</th>
            <th scope="col" className="number">
              Score
            </th>
            <th scope="col">More</th>
          </tr>
        </thead>
        <tbody>
          {leads.map((lead) => (
            <tr key={lead.id}>
              <td className="leads-nowrap">{formatDateTime(lead.createdAt)}</td>
              <td>{lead.name}</td>
              <td>
                <a href={`mailto:${lead.email}`}>{lead.email}</a>
              </td>
              <td>{lead.company ?? <span className="muted">—</span>}</td>
              <td className="leads-source">{lead.source ?? <span className="muted">—</span>}</td>
              <td className="number">{lead.score ?? <span className="muted">—</span>}</td>
              <td>
                <LeadDetails lead={lead} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
