import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { Field, FormError } from "../../ui/forms.tsx";
import { knowledgeKeys, SCHEDULE_LABELS, type SyncSchedule } from "./knowledge-api.ts";

type WebType = "web_page" | "web_site";

/**
 * Adds a web page (one URL) or a whole site (crawled from a start URL and/or read from its
 * sitemap), optionally synced again on a schedule.
 */
export function WebSourceForm({ datastoreId }: { datastoreId: string }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const [type, setType] = useState<WebType>("web_page");
  const [sourceUrl, setSourceUrl] = useState("");
  const [sitemap, setSitemap] = useState("");
  const [name, setName] = useState("");
  const [schedule, setSchedule] = useState<SyncSchedule | "none">("none");
  const [added, setAdded] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/datasources", {
          body: {
            datastoreId,
            type,
            ...(name.trim() ? { name: name.trim() } : {}),
            syncSchedule: schedule === "none" ? null : schedule,
            config: {
              ...(sourceUrl.trim() ? { source_url: sourceUrl.trim() } : {}),
              ...(type === "web_site" && sitemap.trim() ? { sitemap: sitemap.trim() } : {}),
            },
          },
        }),
      ),
    onSuccess: async (datasource) => {
      setAdded(datasource.name);
      setSourceUrl("");
      setSitemap("");
      setName("");
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.datasources(datastoreId) });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    create.mutate();
  };

  return (
    <section className="card knowledge-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Add a web page or site</h2>
      <form className="form" onSubmit={submit}>
        <fieldset className="fieldset">
          <legend>What to read</legend>
          <label className="field-inline">
            <input
              type="radio"
              name="web-type"
              value="web_page"
              checked={type === "web_page"}
              onChange={() => setType("web_page")}
            />
            One web page
          </label>
          <label className="field-inline">
            <input
              type="radio"
              name="web-type"
              value="web_site"
              checked={type === "web_site"}
              onChange={() => setType("web_site")}
            />
            A whole web site (its pages, found from the start URL or the sitemap)
          </label>
        </fieldset>
        <Field label={type === "web_page" ? "Page URL" : "Start URL"}>
          {(props) => (
            <input
              {...props}
              type="url"
              inputMode="url"
              placeholder="https://"
              required={type === "web_page"}
              value={sourceUrl}
              onChange={(event) => setSourceUrl(event.target.value)}
            />
          )}
        </Field>
        {type === "web_site" && (
          <Field label="Sitemap URL" hint="Give the sitemap, the start URL or both.">
            {(props) => (
              <input
                {...props}
                type="url"
                inputMode="url"
                placeholder="https://"
                value={sitemap}
                onChange={(event) => setSitemap(event.target.value)}
              />
            )}
          </Field>
        )}
        <Field label="Name" hint="Optional; the page's address when left empty.">
          {(props) => (
            <input
              {...props}
              value={name}
              maxLength={500}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </Field>
        <Field
          label="Re-sync schedule"
          hint="Reads the page or site again on this schedule, so the knowledge follows it."
        >
          {(props) => (
            <select
              {...props}
              value={schedule}
              onChange={(event) => setSchedule(event.target.value as SyncSchedule | "none")}
            >
              {Object.entries(SCHEDULE_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <FormError error={create.error} />
        <p className="knowledge-success" role="status">
          {added && `Added ${added}; it is being synced.`}
        </p>
        <div>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {type === "web_page" ? "Add web page" : "Add web site"}
          </button>
        </div>
      </form>
    </section>
  );
}
