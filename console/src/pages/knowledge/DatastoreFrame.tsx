import { Link, NavLink, Outlet, useParams } from "react-router";
import { formatInteger } from "../../ui/format.ts";
import { PageHeader } from "../../ui/forms.tsx";
import { ErrorNotice, Loading } from "../../ui/states.tsx";
import { useDatastore } from "./knowledge-api.ts";

/** A datastore's header and its sub-pages: datasources, query tester, settings. */
export default function DatastoreFrame() {
  const { datastoreId = "" } = useParams();
  const datastore = useDatastore(datastoreId);
  const back = (
    <p className="knowledge-breadcrumb">
      <Link to="/knowledge">Knowledge</Link>
    </p>
  );
  if (datastore.isPending) return <Loading label="Loading the datastore…" />;
  if (datastore.isError) {
    return (
      <>
        {back}
        <PageHeader title="Datastore" />
        <ErrorNotice error={datastore.error} retry={() => datastore.refetch()} />
      </>
    );
  }
  const { data } = datastore;
  return (
    <>
      {back}
      <PageHeader
        title={data.name}
        description={
          <>
            {data.description && (
              <span className="datastore-header-description">{data.description}</span>
            )}
            <span className="datastore-facts">
              {data.visibility} · {data.embeddingModel} ({formatInteger(data.dimensions)}{" "}
              dimensions)
            </span>
          </>
        }
      />
      <nav className="tabs-list" aria-label="Datastore">
        <NavLink to={`/knowledge/${data.id}`} end>
          Datasources
        </NavLink>
        <NavLink to={`/knowledge/${data.id}/query`}>Query tester</NavLink>
        <NavLink to={`/knowledge/${data.id}/settings`}>Settings</NavLink>
      </nav>
      <Outlet />
    </>
  );
}
