/** Whether anyone may chat with the agent (public) or only the organization (private). */
export function VisibilityBadge({ visibility }: { visibility: "public" | "private" }) {
  return visibility === "public" ? (
    <span className="badge badge-info">Public</span>
  ) : (
    <span className="badge">Private</span>
  );
}
