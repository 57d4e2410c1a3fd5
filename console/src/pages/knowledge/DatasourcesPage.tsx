import { useParams } from "react-router";
import { useSession } from "../../app/session.tsx";
import { Empty, QueryView } from "../../ui/states.tsx";
import { DatasourceTable } from "./DatasourceTable.tsx";
import { useDatasources } from "./knowledge-api.ts";
import { UploadFiles } from "./UploadFiles.tsx";
import { WebSourceForm } from "./WebSourceForm.tsx";

/** The datastore's datasources with their live status; members add files and web sources. */
export default function DatasourcesPage() {
  const { datastoreId = "" } = useParams();
  const { canWrite } = useSession();
  const datasources = useDatasources(datastoreId);
  return (
    <>
      <h2 className="visually-hidden">Datasources</h2>
      <QueryView
        query={datasources}
        loadingLabel="Loading datasources…"
        isEmpty={(list) => list.length === 0}
        empty={
          <Empty title="No datasource yet">
            <p>
              {canWrite
                ? "Upload files or add a web page below; agents using this datastore answer from them once synched."
                : "A member of the organization can upload files or add web pages."}
            </p>
          </Empty>
        }
      >
        {(list) => <DatasourceTable datastoreId={datastoreId} datasources={list} />}
      </QueryView>
      {canWrite && (
        <div className="knowledge-add">
          <UploadFiles datastoreId={datastoreId} />
          <WebSourceForm datastoreId={datastoreId} />
        </div>
      )}
    </>
  );
}
